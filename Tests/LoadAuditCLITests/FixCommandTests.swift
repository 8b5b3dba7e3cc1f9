import Foundation
import LoadAuditCLI
import XCTest

/// `loadaudit fix` end to end on copies of the fixtures: golden results, idempotence, git apply,
/// and the refusals that keep files safe.
final class FixCommandTests: XCTestCase {
    func copy(_ fixture: String) throws -> TemporaryTree {
        let tree = try TemporaryTree()
        let source = Repository.root.appendingPathComponent(fixture)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: tree.url.appendingPathComponent(name))
        }
        return tree
    }

    func files(in folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)!
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory) else { continue }
            if !isDirectory.boolValue, !path.hasPrefix(".git/"), path != ".git" {
                result[path] = try Data(contentsOf: folder.appendingPathComponent(path))
            }
        }
        return result
    }

    func testFixCasesMatchTheGoldenFilesByteForByteAndASecondRunChangesNothing() throws {
        for (mode, flags) in [("safe", [String]()), ("unsafe", ["--unsafe"])] {
            let tree = try copy("fixtures/FixCases")
            let first = CLIRun(["fix"] + flags + ["."], in: tree.path)
            XCTAssertEqual(first.status, 0, first.output + first.errors)
            XCTAssertTrue(first.output.hasPrefix("Fixed 7 files: 10 edits"), first.output)
            let golden = try files(in: Repository.root.appendingPathComponent("fixtures/expected-fix/\(mode)"))
            let fixed = try files(in: tree.url)
            XCTAssertEqual(Set(fixed.keys), Set(golden.keys))
            for (name, data) in golden {
                XCTAssertEqual(fixed[name], data, "\(mode): \(name) differs from fixtures/expected-fix/\(mode)/\(name)")
            }
            let second = CLIRun(["fix"] + flags + ["."], in: tree.path)
            XCTAssertEqual(second.status, 0)
            XCTAssertTrue(second.output.hasPrefix("Nothing fixed.\n"), second.output)
            XCTAssertEqual(try files(in: tree.url), fixed)
        }
    }

    func testDryRunWritesNothingAndItsDiffIsTheGoldenOneThatGitApplies() throws {
        let tree = try copy("fixtures/ExampleApp")
        let before = try files(in: tree.url)
        let dryRun = CLIRun(["fix", "--dry-run", "."], in: tree.path)
        XCTAssertEqual(dryRun.status, 1)
        XCTAssertEqual(try files(in: tree.url), before)
        XCTAssertTrue(dryRun.errors.contains("Would fix 9 files: 31 edits"), dryRun.errors)
        let goldenFile = Repository.root.appendingPathComponent("fixtures/expected-fix.diff")
        if ProcessInfo.processInfo.environment["LOADAUDIT_UPDATE_GOLDEN"] == "1" {
            try dryRun.output.write(to: goldenFile, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(dryRun.output, try String(contentsOf: goldenFile, encoding: .utf8))

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { throw XCTSkip("git is not installed") }
        let patchFile = tree.url.deletingLastPathComponent().appendingPathComponent("fix-\(UUID().uuidString).diff")
        try dryRun.output.write(to: patchFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: patchFile) }
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.currentDirectoryURL = tree.url
        git.arguments = ["apply", "--whitespace=nowarn", patchFile.path]
        try git.run()
        git.waitUntilExit()
        XCTAssertEqual(git.terminationStatus, 0, "git apply rejected the dry-run diff")

        let fixedByTool = try copy("fixtures/ExampleApp")
        XCTAssertEqual(CLIRun(["fix", fixedByTool.path]).status, 0)
        XCTAssertEqual(try files(in: tree.url), try files(in: fixedByTool.url))

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/patch") else { return }
        let patched = try copy("fixtures/ExampleApp")
        let patch = Process()
        patch.executableURL = URL(fileURLWithPath: "/usr/bin/patch")
        patch.currentDirectoryURL = patched.url
        patch.arguments = ["-p1", "--quiet", "--input", patchFile.path]
        try patch.run()
        patch.waitUntilExit()
        XCTAssertEqual(patch.terminationStatus, 0, "patch -p1 rejected the dry-run diff")
        XCTAssertEqual(try files(in: patched.url), try files(in: fixedByTool.url))
    }

    func testAfterAFixTheScanReportsNoSafeFindingAndOtherFilesAreUntouched() throws {
        let tree = try copy("fixtures/ExampleApp")
        let before = try files(in: tree.url)
        XCTAssertEqual(CLIRun(["fix", "."], in: tree.path).status, 0)
        let scan = CLIRun(["scan", "--format", "json", "."], in: tree.path)
        XCTAssertFalse(scan.output.contains("\"fix\" : \"safe\""))
        XCTAssertTrue(scan.output.contains("\"fix\" : \"unsafe\""))
        let after = try files(in: tree.url)
        let changed = before.keys.filter { before[$0] != after[$0] }.sorted()
        XCTAssertEqual(changed.count, 9)
        XCTAssertFalse(changed.contains("Legacy/UIKit/UploadViewController.swift"))
    }

    func testARewriteThatWouldNotParseIsRefusedAndTheFileLeftUntouched() throws {
        let rules = "version: 1\nrules:\n  - id: broken\n    component: OldBadge\n    message: m\n    replacement: 'Badge(('\n    fix: safe\n"
        let original = "import SwiftUI\nlet badge = OldBadge()\n"
        let tree = try TemporaryTree(["rules.yml": rules, "App/Badge.swift": original, "App/Other.swift": "let b = OldBadge ( )\n"])
        let run = CLIRun(["fix", "--rules", "rules.yml", "App"], in: tree.path)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.output.contains("not fixed: App/Badge.swift:2:13: rewrite would not parse [broken]"), run.output)
        XCTAssertEqual(try String(contentsOf: tree.url.appendingPathComponent("App/Badge.swift"), encoding: .utf8), original)
        let dryRun = CLIRun(["fix", "--dry-run", "--rules", "rules.yml", "App"], in: tree.path)
        XCTAssertEqual(dryRun.output, "")
        XCTAssertEqual(dryRun.status, 1)
    }

    func testReadOnlyFilesAreReportedAndTheOthersFixed() throws {
        let spinner = "import SwiftUI\nlet s = ThemedSpinnerCompact()\n"
        let tree = try TemporaryTree(["Locked.swift": spinner, "Open.swift": spinner])
        let locked = tree.url.appendingPathComponent("Locked.swift").path
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: locked)
        let run = CLIRun(["fix", "."], in: tree.path)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.output.contains("not fixed: Locked.swift: read-only file: not fixed"), run.output)
        XCTAssertEqual(try String(contentsOfFile: locked, encoding: .utf8), spinner)
        XCTAssertTrue(try String(contentsOf: tree.url.appendingPathComponent("Open.swift"), encoding: .utf8).contains("LoadingSpinner(size: .small)"))
    }

    func testPermissionsAreKept() throws {
        let tree = try TemporaryTree(["A.swift": "let s = ThemedSpinnerCompact()\n"])
        let path = tree.url.appendingPathComponent("A.swift").path
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        XCTAssertEqual(CLIRun(["fix", "."], in: tree.path).status, 0)
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        XCTAssertEqual(permissions, 0o640)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: tree.path).filter { $0.contains("loadaudit") }
        XCTAssertEqual(leftovers, [])
    }

    func testALinkToAFileOutsideTheFoldersIsNotWrittenThrough() throws {
        let outside = try TemporaryTree(["Shared.swift": "let s = ThemedSpinnerCompact()\n"])
        let tree = try TemporaryTree(["Own.swift": "let s = ThemedSpinnerCompact()\n"])
        try FileManager.default.createSymbolicLink(atPath: tree.url.appendingPathComponent("Linked.swift").path,
                                                   withDestinationPath: outside.url.appendingPathComponent("Shared.swift").path)
        let run = CLIRun(["fix", "."], in: tree.path)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.output.contains("not fixed: Linked.swift: a symbolic link to"), run.output)
        XCTAssertEqual(try String(contentsOf: outside.url.appendingPathComponent("Shared.swift"), encoding: .utf8), "let s = ThemedSpinnerCompact()\n")
        XCTAssertTrue(try String(contentsOf: tree.url.appendingPathComponent("Own.swift"), encoding: .utf8).contains("LoadingSpinner"))
    }

    func testRuleSelectionLimitsTheFix() throws {
        let tree = try TemporaryTree(["A.swift": "import SwiftUI\nlet a = ThemedSpinnerCompact()\nlet b = PlaceholderCard()\n"])
        XCTAssertEqual(CLIRun(["fix", "--rule", "placeholder-card", "."], in: tree.path).status, 0)
        XCTAssertEqual(try String(contentsOf: tree.url.appendingPathComponent("A.swift"), encoding: .utf8),
                       "import SwiftUI\nlet a = ThemedSpinnerCompact()\nlet b = LoadingPlaceholder.card\n")
    }
}
