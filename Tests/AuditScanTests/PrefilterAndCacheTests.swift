import AuditModel
import AuditReport
import AuditRules
import AuditScan
import Foundation
import XCTest

/// Speed features must never change a result: the prefilter, the number of workers and the cache
/// are all checked against the plain full scan, report byte for byte.
final class PrefilterAndCacheTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func report(_ path: String, prefilter: Bool = true, jobs: Int = 2, cache: ResultCache? = nil) throws -> String {
        let scanner = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(currentDirectory: path),
                                     jobs: jobs, prefilter: prefilter, cache: cache)
        return JSONReport.render(try scanner.scan([path]), toolVersion: "test")
    }

    /// A deterministic tree of SwiftUI-like files, a few of which use deprecated indicators.
    func generatedTree() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("generated-\(UUID().uuidString)")
        for index in 0..<120 {
            let folder = root.appendingPathComponent("Feature\(index % 9)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var body = "import SwiftUI\n\nstruct Screen\(index): View {\n    @State private var items: [String] = []\n    var body: some View {\n        List(items, id: \\.self) { Text($0) }\n"
            switch index % 20 {
            case 3: body += "            .overlay { ProgressView().controlSize(.small) }\n"
            case 7: body += "            .overlay { ThemedSpinner(size: 20) }\n"
            case 11: body += "            .overlay { LoadingSpinner(size: .small, label: \"Hang tight!\") }\n"
            case 13: body += "            // loadaudit:ignore loading-dots\n            .overlay { LoadingDots() }\n"
            default: break
            }
            body += "    }\n}\n"
            if index == 17 { body += "let tips\(index) = [\"One\", \"Two\"]\n" }
            if index == 18 { body += "struct Tip: View { @State var tipIndex = 0\n var body: some View { Text(tips17[tipIndex]).onAppear { Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { _ in tipIndex += 1 } } } }\n" }
            try body.write(to: folder.appendingPathComponent("Screen\(index).swift"), atomically: true, encoding: .utf8)
        }
        return root
    }

    func testThePrefilterAndTheWorkersNeverChangeTheReport() throws {
        let generated = try generatedTree()
        defer { try? FileManager.default.removeItem(at: generated) }
        for path in [Self.repository.appendingPathComponent("fixtures/ExampleApp").path,
                     Self.repository.appendingPathComponent("fixtures/RotatingMessages").path, generated.path] {
            let plain = try report(path, prefilter: false, jobs: 1)
            XCTAssertEqual(try report(path, prefilter: true, jobs: 1), plain, path)
            XCTAssertEqual(try report(path, prefilter: true, jobs: 2), plain, path)
            XCTAssertEqual(try report(path, prefilter: false, jobs: 3), plain, path)
        }
        XCTAssertTrue(try report(generated.path).contains("rotating-loading-message"), "the generated tree spreads a rotation over two files")
    }

    func testTheCacheGivesTheSameReportAndNoticesChangedFiles() throws {
        let tree = try generatedTree()
        let cacheFolder = tree.appendingPathComponent(".cache").path
        defer { try? FileManager.default.removeItem(at: tree) }
        let plain = try report(tree.path)
        let cache = try ResultCache(folder: cacheFolder, rulesKey: "rules-1")
        XCTAssertEqual(try report(tree.path, cache: cache), plain, "cold")
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: cacheFolder).isEmpty)
        XCTAssertEqual(try report(tree.path, cache: cache), plain, "warm")

        let changed = tree.appendingPathComponent("Feature3/Screen3.swift")
        try "import SwiftUI\nlet dots = LoadingDots()\n".write(to: changed, atomically: true, encoding: .utf8)
        XCTAssertEqual(try report(tree.path, cache: cache), try report(tree.path), "after a change")
    }

    func testCorruptOrForeignCacheFilesAreIgnored() throws {
        let tree = try generatedTree()
        let cacheFolder = tree.appendingPathComponent(".cache").path
        defer { try? FileManager.default.removeItem(at: tree) }
        let plain = try report(tree.path)
        let cache = try ResultCache(folder: cacheFolder, rulesKey: "rules-1")
        _ = try report(tree.path, cache: cache)
        for (index, name) in try FileManager.default.contentsOfDirectory(atPath: cacheFolder).enumerated() {
            let file = URL(fileURLWithPath: cacheFolder).appendingPathComponent(name)
            switch index % 3 {
            case 0: try Data("{not json".utf8).write(to: file)
            case 1: try Data().write(to: file)
            default: try Data("{\"format\": 99}".utf8).write(to: file)
            }
        }
        XCTAssertEqual(try report(tree.path, cache: cache), plain)
        // Other rules: nothing of the old cache may be trusted.
        let other = try ResultCache(folder: cacheFolder, rulesKey: "rules-2")
        XCTAssertEqual(try report(tree.path, cache: other), plain)
    }

    func testWordSearchMatchesWholeIdentifiersOnly() {
        let bytes = Array("let tooltips = 1; let tip = tips[i]".utf8)
        XCTAssertTrue(ByteSearch.containsAnyWord(bytes, [Array("tips".utf8)]))
        XCTAssertFalse(ByteSearch.containsAnyWord(Array("let tooltips = 1".utf8), [Array("tips".utf8)]))
        XCTAssertTrue(ByteSearch.containsAny(Array("let tooltips = 1".utf8), [Array("tips".utf8)]))
        XCTAssertFalse(ByteSearch.containsAny(Array("abc".utf8), [Array("abcd".utf8)]))
    }
}
