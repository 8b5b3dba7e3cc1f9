import LoadAuditCLI
import Foundation
import XCTest

final class AtomicWriterTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testReplacesTheContent() throws {
        let path = folder.appendingPathComponent("A.swift").path
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        try AtomicWriter.replace(path, with: Array("new\n".utf8), original: Array("old\n".utf8), roots: [folder.path])
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "new\n")
    }

    func testAFileChangedSinceItWasReadIsNotOverwritten() throws {
        let path = folder.appendingPathComponent("A.swift").path
        try "edited by someone else\n".write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try AtomicWriter.replace(path, with: Array("new\n".utf8), original: Array("old\n".utf8), roots: [folder.path])) { error in
            XCTAssertEqual(error as? WriteRefusal, .changedOnDisk)
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "edited by someone else\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["A.swift"])
    }

    func testAFileReplacedByAFolderIsReported() throws {
        let path = folder.appendingPathComponent("A.swift").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        XCTAssertThrowsError(try AtomicWriter.replace(path, with: [], original: [], roots: [folder.path])) { error in
            guard case .failed? = error as? WriteRefusal else { return XCTFail("\(error)") }
        }
    }
}
