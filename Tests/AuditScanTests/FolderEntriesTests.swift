@testable import AuditScan
import Foundation
import XCTest

/// The walk reads a folder through `CFolderEntries` (open, fstat, getdents64, close) where it is built,
/// and through `opendir`/`readdir` elsewhere: both must give the same entries, in the same order, with
/// the same types, and the same identity, on folders of every shape.
final class FolderEntriesTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folder-entries-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    /// A name of `length` characters drawn from letters, digits, punctuation a file name may hold, and
    /// characters of two to four UTF-8 bytes; with one of the suffixes and names the walk tells apart.
    func name(_ random: inout SystemRandomNumberGenerator, length: Int) -> String {
        let pieces = Array("abcXYZ019_-. +=,@") + ["é", "ß", "中", "🙂"]
        var text = String((0..<length).map { _ in pieces.randomElement(using: &random)! })
        switch Int.random(in: 0..<8, using: &random) {
        case 0, 1: text += ".swift"
        case 2: text += ".png"
        case 3: text = ["Package.swift", ".loadaudit.yml", "project.yml", ".git", "Project.swift"].randomElement(using: &random)!
        default: break
        }
        // A file name is at most 255 bytes.
        while text.utf8.count > 255 { text.removeFirst() }
        return text == "." || text == ".." || text.isEmpty ? "x" : text
    }

    func fill(_ folder: URL, count: Int, longest: Int, _ random: inout SystemRandomNumberGenerator) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for _ in 0..<count {
            let entry = folder.appendingPathComponent(name(&random, length: Int.random(in: 1...longest, using: &random)))
            // (Asked without following a link: a broken one is there too.)
            if (try? FileManager.default.attributesOfItem(atPath: entry.path)) != nil { continue }
            switch Int.random(in: 0..<6, using: &random) {
            case 0: try FileManager.default.createDirectory(at: entry, withIntermediateDirectories: false)
            case 1: try FileManager.default.createSymbolicLink(atPath: entry.path, withDestinationPath: Bool.random(using: &random) ? "." : "missing")
            default: try Data("let x = 1\n".utf8).write(to: entry)
            }
        }
    }

    func assertSameEntries(_ folder: URL, file: StaticString = #filePath, line: UInt = #line) {
        for identifying in [true, false] {
            let fast = SourceDiscovery.entries(of: folder.path, identifying: identifying)
            let plain = SourceDiscovery.entriesByReaddir(of: folder.path, identifying: identifying)
            XCTAssertEqual(fast?.entries.map(\.name), plain?.entries.map(\.name), folder.path, file: file, line: line)
            XCTAssertEqual(fast?.entries.map(\.type), plain?.entries.map(\.type), folder.path, file: file, line: line)
            XCTAssertEqual(fast?.identity, plain?.identity, folder.path, file: file, line: line)
            XCTAssertEqual(fast == nil, plain == nil, folder.path, file: file, line: line)
        }
    }

    func testTheKernelsListIsReaddirsOnGeneratedFolders() throws {
        var random = SystemRandomNumberGenerator()
        for round in 0..<8 {
            let folder = root.appendingPathComponent("round\(round)")
            // Small folders, and large ones of long names: more than one 32 KB read of the kernel's list.
            let large = round % 4 == 3
            try fill(folder, count: large ? 700 : Int.random(in: 0...40, using: &random), longest: large ? 200 : 30, &random)
            assertSameEntries(folder)
        }
        let identity = try XCTUnwrap(SourceDiscovery.entries(of: root.path, identifying: true)?.identity)
        XCTAssertEqual(identity, SourceDiscovery.FileIdentity(path: root.path))
        XCTAssertNil(SourceDiscovery.entries(of: root.appendingPathComponent("missing").path, identifying: true))
        XCTAssertNil(SourceDiscovery.entries(of: root.appendingPathComponent("round0").path + "/../missing", identifying: false))
    }
}
