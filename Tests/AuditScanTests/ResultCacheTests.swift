import AuditModel
import AuditReport
import AuditRules
@testable import AuditScan
import Foundation
import LoadAuditTestSupport
import XCTest

/// The per-file cache must never change a result: cold, warm, after a change, and with corrupt or
/// foreign cache files, a scan reports byte for byte what a scan without it reports.
final class ResultCacheTests: XCTestCase {
    func report(_ path: String, cache: ResultCache? = nil) throws -> String {
        let scanner = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(currentDirectory: path), jobs: 2, cache: cache)
        return JSONReport.render(try scanner.scan([path]), toolVersion: "test")
    }

    func testTheCacheGivesTheSameReportAndNoticesChangedFiles() throws {
        let tree = try GeneratedTrees.swiftUIScreens()
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

    /// The keys are two 64-bit FNV-1a hashes (the second from another seed, over the bytes xor 0x5A):
    /// values pinned, so that a change of the hash, which would turn every cache cold, is seen.
    func testTheKeysAreTwoFNV1aHashes() {
        XCTAssertEqual(ResultCache.hash([UInt8]()), "cbf29ce484222325" + "84222325cbf29ce4")
        XCTAssertEqual(ResultCache.hash(Array("let a = 1\n".utf8)), "88a948f56987da51" + "ea881ae5aee63ce4")
    }

    func testCorruptOrForeignCacheFilesAreIgnored() throws {
        let tree = try GeneratedTrees.swiftUIScreens()
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
}
