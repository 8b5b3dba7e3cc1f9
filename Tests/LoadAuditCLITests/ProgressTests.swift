import Foundation
import XCTest

/// `loadaudit progress` on a small repository whose migration happens commit by commit, checked
/// against `loadaudit scan` run on a checkout of each sampled commit.
final class ProgressTests: XCTestCase {
    private static func view(_ body: String) -> String { "import SwiftUI\n\nstruct Screen: View {\n    var body: some View {\n        VStack {\n\(body)\n        }\n    }\n}\n" }

    /// Four weeks of a migration: each sample equals a scan of its checkout, and adoption grows.
    static func migratingRepository() throws -> TemporaryTree {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { throw XCTSkip("git is not installed") }
        let tree = try TemporaryTree()
        try tree.git(["init", "-q", "-b", "main"])
        let weeks: [(date: String, files: [String: String])] = [
            ("2026-01-05", ["App/Games.swift": view("ProgressView()\nThemedSpinner(size: 20)\nLoadingDots()"),
                            "Kit/Overlay.swift": view("LoadingOverlay(message: \"Exporting PDF\")")]),
            ("2026-01-07", ["App/Games.swift": view("LoadingSpinner(size: .medium)\nThemedSpinner(size: 20)\nLoadingDots()")]),
            ("2026-01-13", ["App/Games.swift": view("LoadingSpinner(size: .medium)\nLoadingSpinner(size: .small)\nLoadingDots()"),
                            "App/Notes.swift": "// ProgressView() was here\nlet note = \"ThemedSpinner\"\n"]),
            ("2026-01-21", ["Kit/Overlay.swift": view("LoadingSheet(label: \"Exporting PDF\")")]),
            ("2026-01-28", ["App/Games.swift": view("LoadingSpinner(size: .medium)\nLoadingSpinner(size: .small)")]),
        ]
        for (date, files) in weeks {
            for (path, text) in files { try tree.write(path, text) }
            try tree.git(["add", "-A"])
            try tree.git(["commit", "-q", "-m", "week of \(date)"], date: date)
        }
        return tree
    }

    private func json(_ run: CLIRun) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], run.errors)
    }

    func testEverySampleEqualsAScanOfItsCheckout() throws {
        let tree = try Self.migratingRepository()
        let run = CLIRun(["progress", "--format", "json", "."], in: tree.path)
        XCTAssertEqual(run.status, 0, run.errors)
        let samples = try XCTUnwrap(try json(run)["samples"] as? [[String: Any]])
        // Weekly: the newest commit of each ISO week (Jan 5-7 are one week).
        XCTAssertEqual(samples.map { $0["date"] as? String }, ["2026-01-07", "2026-01-13", "2026-01-21", "2026-01-28"])
        for sample in samples {
            let commit = try XCTUnwrap(sample["commit"] as? String)
            let checkout = tree.url.appendingPathComponent(".checkout-" + commit.prefix(8)).path
            try tree.git(["worktree", "add", "-q", "--detach", checkout, commit])
            let scan = try json(CLIRun(["scan", "--format", "json", "--fail-on", "never", "."], in: checkout))
            let byRule = try XCTUnwrap((scan["summary"] as? [String: Any])?["byRule"] as? [String: Int])
            XCTAssertEqual(sample["findingsByRule"] as? [String: Int], byRule, "sample \(sample["date"]!)")
        }
        XCTAssertEqual(samples.map { ($0["adoption"] as? [String: Int])?.values.reduce(0, +) }, [1, 2, 3, 3])
        XCTAssertEqual(samples.last?["findingsByRule"] as? [String: Int], [:])
        XCTAssertEqual(samples.first?["findingsByFolder"] as? [String: Int], ["App": 2, "Kit": 1])
    }

    /// Each sample names the commits since the one before that moved the counts, with their change.
    func testTheCommitsThatMovedTheCounts() throws {
        let tree = try Self.migratingRepository()
        let samples = try XCTUnwrap(try json(CLIRun(["progress", "--format", "json", "."], in: tree.path))["samples"] as? [[String: Any]])
        let changes = samples.map { sample in
            ((sample["biggestChanges"] as? [[String: Any]]) ?? []).map { "\($0["subject"]!): \($0["findings"]!) \($0["adopted"]!)" }
        }
        XCTAssertEqual(changes, [
            [],  // the first sample: nothing before it
            ["week of 2026-01-13: -1 1"],  // ThemedSpinner -> LoadingSpinner; the comment and string in Notes.swift count nothing
            ["week of 2026-01-21: -1 1"],  // LoadingOverlay -> LoadingSheet
            ["week of 2026-01-28: -1 0"],  // LoadingDots deleted
        ])
        let author = try XCTUnwrap((samples[1]["biggestChanges"] as? [[String: Any]])?.first?["author"] as? String)
        XCTAssertFalse(author.isEmpty)
    }

    /// With --cache, file versions analysed once are kept (by path and blob id, rules and tool version)
    /// and read back by the next run; a damaged cache is ignored and rewritten.
    func testTheCacheKeepsFileVersionsBetweenRuns() throws {
        let tree = try Self.migratingRepository()
        let plain = CLIRun(["progress", "--format", "json", "."], in: tree.path)
        let first = CLIRun(["progress", "--cache", "--format", "json", "."], in: tree.path)
        XCTAssertEqual(first.output, plain.output)
        let cacheFile = tree.url.appendingPathComponent(".loadaudit-cache/history-versions.json")
        let kept = try String(contentsOf: cacheFile, encoding: .utf8)
        XCTAssertEqual(CLIRun(["progress", "--cache", "--format", "json", "."], in: tree.path).output, plain.output)
        // Read back, not recomputed: a kept version's uses, changed by hand, show in the next run.
        let changed = kept.replacingOccurrences(of: "\"uses\":{\"LoadingSpinner\":1}", with: "\"uses\":{\"LoadingSpinner\":100}")
        XCTAssertNotEqual(changed, kept)
        try changed.write(to: cacheFile, atomically: true, encoding: .utf8)
        let adopted = try XCTUnwrap(try json(CLIRun(["progress", "--cache", "--format", "json", "."], in: tree.path))["samples"] as? [[String: Any]])
            .map { ($0["adoption"] as? [String: Int])?.values.reduce(0, +) ?? 0 }
        XCTAssertTrue(adopted.contains { $0 >= 100 }, "\(adopted)")
        // Damaged: ignored, and rewritten whole.
        try "{ not json".write(to: cacheFile, atomically: true, encoding: .utf8)
        XCTAssertEqual(CLIRun(["progress", "--cache", "--format", "json", "."], in: tree.path).output, plain.output)
        XCTAssertEqual(try String(contentsOf: cacheFile, encoding: .utf8).count, kept.count)
    }

    func testTextCSVAndAProjection() throws {
        let tree = try Self.migratingRepository()
        let text = CLIRun(["progress", "."], in: tree.path)
        XCTAssertTrue(text.output.contains("2026-01-07"), text.output)
        XCTAssertTrue(text.output.contains("none left by"), text.output)
        XCTAssertTrue(text.output.contains("The commits that moved the counts most:\n  2026-01-21  "), text.output)
        XCTAssertTrue(text.output.contains("findings -1, adopted +1  week of 2026-01-21 ("), text.output)
        let csv = CLIRun(["progress", "--format", "csv", "--every", "2-commits", "."], in: tree.path)
        let lines = csv.output.split(separator: "\n")
        XCTAssertTrue(lines[0].hasPrefix("date,commit,files,findings,adopted,migrated_percent,incomplete_files,rule:themed-spinner,"), csv.output)
        XCTAssertEqual(lines.count, 4, "commits 1, 3, 5 of five (every 2) and HEAD is the 5th: \(csv.output)")
        // From a ref: that commit and those after it.
        let since = try json(CLIRun(["progress", "--format", "json", "--every", "1-commits", "--since", "HEAD~2", "."], in: tree.path))
        XCTAssertEqual((since["samples"] as? [[String: Any]])?.map { $0["date"] as? String }, ["2026-01-13", "2026-01-21", "2026-01-28"])
    }

    /// A SwiftPM layout has one top-level folder, `Sources`: the findings are counted per module, by
    /// the folder the project model gives each target (a `path:` too); a folder that is no target is
    /// counted by its first two folders. A scan of `Sources` itself counts by its own top folders.
    /// (issue 35, item 7)
    func testASwiftPMLayoutIsCountedPerModule() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { throw XCTSkip("git is not installed") }
        let tree = try TemporaryTree()
        try tree.git(["init", "-q", "-b", "main"])
        let manifest = """
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(name: "Shop", targets: [
                .target(name: "AppCore"),
                .target(name: "Checkout"),
                .target(name: "Login", path: "Sources/Features/Login"),
                .testTarget(name: "AppCoreTests", dependencies: ["AppCore"]),
            ])

            """
        let weeks: [(date: String, files: [String: String])] = [
            ("2026-01-05", ["Package.swift": manifest,
                            "Sources/AppCore/Spinner.swift": Self.view("ProgressView()\nThemedSpinner(size: 20)"),
                            "Sources/Checkout/Pay.swift": Self.view("LoadingDots()"),
                            "Sources/Features/Login/Sign.swift": Self.view("ProgressView()"),
                            "Sources/Generated/Made.swift": Self.view("ProgressView()"),
                            "Tests/AppCoreTests/SpinnerTests.swift": "import XCTest\n"]),
            ("2026-01-13", ["Sources/Checkout/Pay.swift": Self.view("Text(\"Paid\")")]),
        ]
        for (date, files) in weeks {
            for (path, text) in files { try tree.write(path, text) }
            try tree.git(["add", "-A"])
            try tree.git(["commit", "-q", "-m", "week of \(date)"], date: date)
        }
        let run = CLIRun(["progress", "--format", "json", "."], in: tree.path)
        XCTAssertEqual(run.status, 0, run.errors)
        let samples = try XCTUnwrap(try json(run)["samples"] as? [[String: Any]])
        XCTAssertEqual(samples.map { $0["findingsByFolder"] as? [String: Int] }, [
            ["Sources/AppCore": 2, "Sources/Checkout": 1, "Sources/Features/Login": 1, "Sources/Generated": 1],
            ["Sources/AppCore": 2, "Sources/Features/Login": 1, "Sources/Generated": 1],
        ])
        let text = CLIRun(["progress", "."], in: tree.path)
        XCTAssertTrue(text.output.contains("Now, by folder:\n      2  Sources/AppCore\n      1  Sources/Features/Login\n      1  Sources/Generated\n"), text.output)
        let sources = try json(CLIRun(["progress", "--format", "json", "Sources"], in: tree.path))
        XCTAssertEqual((sources["samples"] as? [[String: Any]])?.last?["findingsByFolder"] as? [String: Int], ["AppCore": 2, "Features": 1, "Generated": 1])
    }

    func testBadInputIsOneLineAndExitTwo() throws {
        let tree = try Self.migratingRepository()
        let plain = try TemporaryTree(["A.swift": "let a = 1\n"])
        let cases: [([String], String, String)] = [
            (["progress", "."], plain.path, "not in a git work tree"),
            (["progress", "--since", "nope", "."], tree.path, "--since nope: not a date (YYYY-MM-DD) nor a commit git knows"),
            (["progress", "--since", "2999-01-01", "."], tree.path, "--since 2999-01-01: a date in the future"),
            (["progress", "--since", "2026-02-01", "."], tree.path, "--since 2026-02-01: no commit in that range"),
            (["progress", "--every", "fortnight", "."], tree.path, "--every must be day, week, month or N-commits"),
        ]
        for (arguments, folder, message) in cases {
            let run = CLIRun(arguments, in: folder)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.output)")
            XCTAssertTrue(run.errors.contains(message), "\(arguments): \(run.errors)")
        }
    }

    /// Findings per owner from the work tree's CODEOWNERS; a bad line is reported with its number and skipped.
    func testFindingsPerOwnerFromCODEOWNERS() throws {
        let tree = try Self.migratingRepository()
        try tree.write(".github/CODEOWNERS", "*.swift @mobile\n/Kit/ @kit-team\nApp/ not-an-owner\n")
        let run = CLIRun(["progress", "--format", "json", "."], in: tree.path)
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertEqual(run.errors, "loadaudit: warning: .github/CODEOWNERS:3: 'not-an-owner' is not an owner (@user, @org/team or an e-mail address): line skipped\n")
        let samples = try XCTUnwrap(try json(run)["samples"] as? [[String: Any]])
        XCTAssertEqual(samples.first?["findingsByOwner"] as? [String: Int], ["@mobile": 2, "@kit-team": 1])
        let text = CLIRun(["progress", "."], in: tree.path)
        XCTAssertFalse(text.output.contains("by owner"), "no finding is left at HEAD: \(text.output)")
    }

    /// A tagged commit is always a sample; a change to the files that decide the rules is an event.
    func testTagsAreSamplesAndRuleFileChangesAreEvents() throws {
        let tree = try Self.migratingRepository()
        try tree.git(["tag", "-a", "v1.0", "-m", "first release", "HEAD~4"])
        try tree.write(".loadaudit.yml", "fail-on: error\n")
        try tree.git(["add", "-A"])
        try tree.git(["commit", "-q", "-m", "a configuration"], date: "2026-02-02")
        let run = CLIRun(["progress", "--format", "json", "."], in: tree.path)
        XCTAssertEqual(run.status, 0, run.errors)
        let samples = try XCTUnwrap(try json(run)["samples"] as? [[String: Any]])
        XCTAssertEqual(samples.map { $0["date"] as? String }, ["2026-01-05", "2026-01-07", "2026-01-13", "2026-01-21", "2026-01-28", "2026-02-02"])
        XCTAssertEqual(samples.map { ($0["events"] as? [String]) ?? [] }, [[], [], [], [], [], [".loadaudit.yml added"]])
        XCTAssertTrue(CLIRun(["progress", "."], in: tree.path).output.contains("(.loadaudit.yml added)"))
    }
}
