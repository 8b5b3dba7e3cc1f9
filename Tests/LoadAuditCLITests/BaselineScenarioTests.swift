import Foundation
import XCTest

/// The CI gate end to end, in temporary git repositories: baseline, edits above a use, a new use, a
/// fixed use, identical uses, and --diff-base.
final class BaselineScenarioTests: XCTestCase {
    let screen = """
    import SwiftUI

    struct GamesView: View {
        @State private var isLoading = true

        var body: some View {
            VStack {
                if isLoading {
                    ProgressView("Loading games...")
                }
                ThemedSpinner(size: 24)
            }
        }
    }

    """

    func repository(_ files: [String: String]) throws -> TemporaryTree {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { throw XCTSkip("git is not installed") }
        let tree = try TemporaryTree(files)
        try tree.git(["init", "-q", "-b", "main"])
        try tree.git(["add", "-A"])
        try tree.git(["commit", "-q", "-m", "initial"])
        return tree
    }

    func newLines(_ run: CLIRun) -> [String] {
        run.output.split(separator: "\n").map(String.init).filter { $0.contains(": warning:") }
    }

    func testTheBaselineScenario() throws {
        let tree = try repository(["App/GamesView.swift": screen])
        let write = CLIRun(["baseline", "App"], in: tree.path)
        XCTAssertEqual(write.status, 0, write.errors)
        XCTAssertEqual(write.output, "Wrote App/.loadaudit-baseline.json: 2 findings.\n")
        let baselineText = try String(contentsOf: tree.url.appendingPathComponent("App/.loadaudit-baseline.json"), encoding: .utf8)
        XCTAssertFalse(baselineText.contains(tree.path), "no absolute paths")
        XCTAssertFalse(baselineText.contains("\"line\""), "no line numbers")
        XCTAssertEqual(CLIRun(["baseline", "App"], in: tree.path).status, 0)
        XCTAssertEqual(try String(contentsOf: tree.url.appendingPathComponent("App/.loadaudit-baseline.json"), encoding: .utf8), baselineText,
                       "rewriting an unchanged baseline changes nothing")

        let baseline = ["scan", "--baseline", "App/.loadaudit-baseline.json", "App"]
        XCTAssertEqual(CLIRun(baseline, in: tree.path).status, 0)

        // Lines inserted above the uses, and everything re-indented: still existing.
        let shifted = "// Games history.\n// Shows the season's games.\n\n" + screen.replacingOccurrences(of: "    ", with: "\t")
        try tree.write("App/GamesView.swift", shifted)
        let afterEdit = CLIRun(baseline, in: tree.path)
        XCTAssertEqual(afterEdit.status, 0, afterEdit.output)
        XCTAssertTrue(afterEdit.output.contains("0 new findings, 2 existing, 0 fixed since the baseline"), afterEdit.output)

        // One new use: exit 1, and only it is named as new.
        let withNew = shifted.replacingOccurrences(of: "\t\t\tThemedSpinner(size: 24)\n", with: "\t\t\tThemedSpinner(size: 24)\n\t\t\tLoadingDots()\n")
        try tree.write("App/GamesView.swift", withNew)
        let newUse = CLIRun(baseline, in: tree.path)
        XCTAssertEqual(newUse.status, 1)
        XCTAssertEqual(newLines(newUse).count, 1, newUse.output)
        XCTAssertTrue(newLines(newUse).first?.hasPrefix("App/GamesView.swift:15:4: warning: LoadingDots") == true, newUse.output)
        XCTAssertTrue(newUse.output.hasPrefix("NEW: 1 finding not in the baseline"), newUse.output)

        // A fixed use: reported as fixed, exit 0, or 1 with --strict-baseline; the ratchet command is given.
        let fixed = shifted.replacingOccurrences(of: "\t\t\tThemedSpinner(size: 24)\n", with: "\t\t\tLoadingSpinner(size: .medium)\n")
        try tree.write("App/GamesView.swift", fixed)
        let afterFix = CLIRun(baseline, in: tree.path)
        XCTAssertEqual(afterFix.status, 0, afterFix.output)
        XCTAssertTrue(afterFix.output.contains("Fixed since the baseline: 1 entry no longer found"), afterFix.output)
        XCTAssertTrue(afterFix.output.contains("Ratchet the baseline down with: loadaudit baseline --output App/.loadaudit-baseline.json App"), afterFix.output)
        XCTAssertEqual(CLIRun(baseline + ["--strict-baseline"], in: tree.path).status, 1)
        XCTAssertEqual(CLIRun(["baseline", "--output", "App/.loadaudit-baseline.json", "App"], in: tree.path).output,
                       "Wrote App/.loadaudit-baseline.json: 1 findings (0 added, 1 removed since the previous baseline).\n")
        XCTAssertEqual(CLIRun(baseline + ["--strict-baseline"], in: tree.path).status, 0)
    }

    /// Ratcheting part of the project: a scan of a subfolder judges only the entries of the files it
    /// covers, and `baseline` of a subfolder rewrites only those; the next full scan is clean.
    func testAScanOrBaselineOfASubfolderLeavesTheRestOfTheBaselineAlone() throws {
        let tree = try repository([
            "App/Features/GamesView.swift": screen, "App/Legacy/OldView.swift": screen,
            "App/Legacy/Gone.swift": screen, ".loadaudit.yml": "baseline: App/.loadaudit-baseline.json\nexclude: [\"App/Generated\"]\n",
            "App/Generated/Made.swift": screen,
        ])
        XCTAssertEqual(CLIRun(["baseline", "."], in: tree.path).output, "Wrote App/.loadaudit-baseline.json: 6 findings.\n")
        // An entry in a file the configuration excludes is outside every scan too.
        let baselineFile = tree.url.appendingPathComponent("App/.loadaudit-baseline.json")
        let entries = try String(contentsOf: baselineFile, encoding: .utf8)
        try entries.replacingOccurrences(of: "\"file\" : \"Features/GamesView.swift\"", with: "\"file\" : \"Generated/Made.swift\"")
            .write(to: baselineFile, atomically: true, encoding: .utf8)
        // A baseline of the whole project keeps them too: 6 findings and the 2 entries of the excluded file.
        XCTAssertEqual(CLIRun(["baseline", "."], in: tree.path).output,
                       "Wrote App/.loadaudit-baseline.json: 8 findings (2 added, 0 removed since the previous baseline; 2 outside the scanned paths kept as they were).\n")
        let fullText = try String(contentsOf: baselineFile, encoding: .utf8)

        // One legacy file is fixed (deleted); a scan of Features says nothing of Legacy.
        try FileManager.default.removeItem(at: tree.url.appendingPathComponent("App/Legacy/Gone.swift"))
        let features = CLIRun(["scan", "App/Features"], in: tree.path)
        XCTAssertEqual(features.status, 0, features.output)
        XCTAssertTrue(features.output.contains("0 new findings, 2 existing, 0 fixed since the baseline"), features.output)
        let legacy = CLIRun(["scan", "App/Legacy"], in: tree.path)
        XCTAssertTrue(legacy.output.contains("0 new findings, 2 existing, 2 fixed since the baseline"), legacy.output)
        XCTAssertTrue(legacy.output.contains("Legacy/Gone.swift"), legacy.output)

        // Ratcheting Features rewrites nothing; ratcheting Legacy drops Gone.swift's entries only.
        XCTAssertEqual(CLIRun(["baseline", "App/Features"], in: tree.path).output,
                       "Wrote App/.loadaudit-baseline.json: 8 findings (0 added, 0 removed since the previous baseline; 6 outside the scanned paths kept as they were).\n")
        XCTAssertEqual(try String(contentsOf: baselineFile, encoding: .utf8), fullText)
        XCTAssertEqual(CLIRun(["baseline", "App/Legacy"], in: tree.path).output,
                       "Wrote App/.loadaudit-baseline.json: 6 findings (0 added, 2 removed since the previous baseline; 4 outside the scanned paths kept as they were).\n")
        let full = CLIRun(["scan", "--strict-baseline", "."], in: tree.path)
        XCTAssertEqual(full.status, 0, full.output)
        XCTAssertTrue(full.output.contains("0 new findings, 4 existing, 0 fixed since the baseline"), full.output)
    }

    func testIdenticalUsesStayDistinctAndRemovingOneIsNotANewOne() throws {
        let three = screen.replacingOccurrences(of: "            ThemedSpinner(size: 24)\n",
                                                with: "            ThemedSpinner(size: 24)\n            ThemedSpinner(size: 24)\n            ThemedSpinner(size: 24)\n")
        let tree = try repository(["GamesView.swift": three])
        XCTAssertEqual(CLIRun(["baseline", "."], in: tree.path).status, 0)
        let json = CLIRun(["scan", "--format", "json", "."], in: tree.path).output
        for occurrence in 1...3 { XCTAssertTrue(json.contains("-\(occurrence)\""), "occurrence \(occurrence) in \(json)") }

        let two = three.replacingOccurrences(of: "            ThemedSpinner(size: 24)\n            ThemedSpinner(size: 24)\n",
                                             with: "            ThemedSpinner(size: 24)\n")
        try tree.write("GamesView.swift", two)
        let run = CLIRun(["scan", "--baseline", ".loadaudit-baseline.json", "."], in: tree.path)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("0 new findings, 3 existing, 1 fixed since the baseline"), run.output)
        try tree.write("GamesView.swift", three.replacingOccurrences(of: "ThemedSpinner(size: 24)\n        }", with: "ThemedSpinner(size: 24)\n            ThemedSpinner(size: 24)\n        }"))
        XCTAssertEqual(CLIRun(["scan", "--baseline", ".loadaudit-baseline.json", "."], in: tree.path).status, 1, "a fourth copy is new")
    }

    func testDiffBaseFailsOnlyOnLinesAddedSinceTheMergeBase() throws {
        let tree = try repository(["App/GamesView.swift": screen, "App/Other.swift": "import SwiftUI\nlet dots = LoadingDots()\n"])
        try tree.git(["checkout", "-q", "-b", "feature"])
        let added = screen.replacingOccurrences(of: "            ThemedSpinner(size: 24)\n", with: "            ThemedSpinner(size: 24)\n            PlaceholderCard()\n")
        try tree.write("App/GamesView.swift", added)
        try tree.git(["commit", "-q", "-am", "add a placeholder"])
        try tree.write("App/New.swift", "import SwiftUI\nlet overlay = LoadingOverlay()\n")

        let run = CLIRun(["scan", "--diff-base", "main", "--format", "json", "App"], in: tree.path)
        XCTAssertEqual(run.status, 1)
        let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as! [String: Any]
        let findings = report["findings"] as! [[String: Any]]
        let new = findings.filter { $0["baseline"] as? String == "new" }.map { "\($0["file"]!):\($0["ruleId"]!)" }
        XCTAssertEqual(new, ["App/GamesView.swift:placeholder-card", "App/New.swift:loading-overlay"])
        XCTAssertEqual(findings.count, 5)

        let clean = try repository(["A.swift": screen])
        XCTAssertEqual(CLIRun(["scan", "--diff-base", "main", "."], in: clean.path).status, 0)
    }

    func testDiffBaseErrorsAreClear() throws {
        let tree = try repository(["A.swift": screen])
        let unknown = CLIRun(["scan", "--diff-base", "no-such-branch", "."], in: tree.path)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.errors.contains("no commit named 'no-such-branch'"), unknown.errors)
        let plain = try TemporaryTree(["A.swift": screen])
        let outside = CLIRun(["scan", "--diff-base", "main", "."], in: plain.path)
        XCTAssertEqual(outside.status, 2)
        XCTAssertTrue(outside.errors.contains("needs a git work tree"), outside.errors)
    }

    /// A repository git refuses to read (owned by another user, common in CI containers): the scan
    /// stops with git's own words instead of ignoring .gitignore without a word; --no-gitignore is the
    /// way round for the walk, and --diff-base says what git said.
    func testARepositoryGitRefusesStopsTheRunWithGitsWords() throws {
        let tree = try repository(["A.swift": screen, ".gitignore": "Generated/\n", "Generated/G.swift": screen])
        setenv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1", 1)
        defer { unsetenv("GIT_TEST_ASSUME_DIFFERENT_OWNER") }
        let refused = CLIRun(["scan", "."], in: tree.path)
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.errors.hasPrefix("loadaudit: error: .: git says: fatal: detected dubious ownership in repository at "), refused.errors)
        XCTAssertTrue(refused.errors.contains("so its .gitignore cannot be honoured (fix that, or scan with --no-gitignore)"), refused.errors)
        XCTAssertEqual(refused.output, "")

        let walked = CLIRun(["scan", "--no-gitignore", "--format", "json", "."], in: tree.path)
        XCTAssertEqual(walked.status, 1, walked.errors)
        XCTAssertTrue(walked.output.contains("\"filesScanned\" : 2"), walked.output)

        let diff = CLIRun(["scan", "--no-gitignore", "--diff-base", "main", "."], in: tree.path)
        XCTAssertEqual(diff.status, 2)
        XCTAssertTrue(diff.errors.hasPrefix("loadaudit: error: --diff-base: fatal: detected dubious ownership in repository at "), diff.errors)
    }

    /// A pull request cannot switch its own gate off: with --diff-base, weakening .loadaudit.yml or
    /// growing the baseline is a finding that fails the run, unless --allow-gate-changes says so.
    func testAChangeThatWeakensTheGateFailsWithDiffBase() throws {
        let config = "baseline: .loadaudit-baseline.json\nseverity:\n  loading-dots: error\n"
        let tree = try repository(["App/GamesView.swift": screen, ".loadaudit.yml": config])
        XCTAssertEqual(CLIRun(["baseline", "."], in: tree.path).status, 0)
        try tree.git(["add", "-A"])
        try tree.git(["commit", "-q", "-m", "baseline"])
        try tree.git(["checkout", "-q", "-b", "change"])
        let scan = ["scan", "--diff-base", "main", "--format", "json", "."]
        XCTAssertEqual(CLIRun(scan, in: tree.path).status, 0, "nothing changed")

        func gateMessages(_ run: CLIRun) -> [String] {
            guard let json = try? JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any],
                  let findings = json["findings"] as? [[String: Any]] else { return ["unreadable: \(run.output) \(run.errors)"] }
            return findings.filter { $0["ruleId"] as? String == "gate-weakened" }.map { "\($0["line"] ?? 0) \($0["message"] ?? "")" }
        }
        let weakened = config.replacingOccurrences(of: "loading-dots: error", with: "loading-dots: note\n  raw-progress-view: off")
            + "fail-on: never\nexclude: [\"App/Legacy\"]\n"
        try tree.write(".loadaudit.yml", weakened)
        try tree.write("App/Legacy/Old.swift", screen)
        let run = CLIRun(scan, in: tree.path)
        XCTAssertEqual(run.status, 1, run.errors)
        let messages = gateMessages(run)
        XCTAssertEqual(messages.count, 4, "\(messages)")
        for expected in ["4 This change weakens the loadaudit gate it is checked by. (the rule raw-progress-view is switched off; --allow-gate-changes if intended)",
                         "3 This change weakens the loadaudit gate it is checked by. (the rule loading-dots is lowered from error to note;",
                         "5 This change weakens the loadaudit gate it is checked by. (fail-on is weakened from warning to never;",
                         "6 This change weakens the loadaudit gate it is checked by. (exclude gains 'App/Legacy';"] {
            XCTAssertTrue(messages.contains { $0.hasPrefix(expected) }, "\(expected) not in \(messages)")
        }
        // --fail-on on the command line decides the failing severity: the configuration's is not judged.
        XCTAssertEqual(gateMessages(CLIRun(scan + ["--fail-on", "error"], in: tree.path)).count, 3)
        XCTAssertEqual(CLIRun(scan + ["--allow-gate-changes"], in: tree.path).status, 0)
        XCTAssertEqual(gateMessages(CLIRun(scan + ["--allow-gate-changes"], in: tree.path)), [])

        // A new use accepted into the baseline instead of fixed.
        try tree.write(".loadaudit.yml", config)
        try FileManager.default.removeItem(at: tree.url.appendingPathComponent("App/Legacy"))
        try tree.write("App/GamesView.swift", screen.replacingOccurrences(of: "ThemedSpinner(size: 24)\n", with: "ThemedSpinner(size: 24)\n            LoadingDots()\n"))
        XCTAssertEqual(CLIRun(["baseline", "."], in: tree.path).status, 0)
        let accepted = CLIRun(scan, in: tree.path)
        XCTAssertEqual(accepted.status, 1)
        XCTAssertEqual(gateMessages(accepted).count, 1)
        XCTAssertTrue(gateMessages(accepted).first?.contains("(the baseline gains an entry: loading-dots in App/GamesView.swift (LoadingDots())") == true,
                      "\(gateMessages(accepted))")
        let text = CLIRun(["scan", "--diff-base", "main", "."], in: tree.path)
        XCTAssertTrue(text.output.contains(".loadaudit-baseline.json:"), text.output)
    }

    /// The verdict on a use does not depend on which part of the project is scanned: facts such as
    /// the app's own `ProgressView` come from the project root (the git work tree here, or the folder
    /// of .loadaudit.yml), and the findings of a subfolder are those of a full scan.
    func testAScanOfASubfolderJudgesWithTheWholeProjectsFacts() throws {
        let ownProgressView = "import UIKit\n\nfinal class ProgressView: UIView {}\n"
        let export = "import SwiftUI\nimport UIKit\n\nstruct ExportView: View {\n    var body: some View { ProgressView() }\n}\n"
        let files = ["Legacy/ProgressView.swift": ownProgressView, "Features/Export/ExportView.swift": export]
        let tree = try repository(files)
        func findings(_ run: CLIRun) throws -> [[String: Any]] {
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], run.errors)
            return try XCTUnwrap(json["findings"] as? [[String: Any]])
        }
        let full = try findings(CLIRun(["scan", "--format", "json", "."], in: tree.path))
        let part = try findings(CLIRun(["scan", "--format", "json", "Features"], in: tree.path))
        XCTAssertEqual(full.count, 1)
        XCTAssertEqual(full.first?["fix"] as? String, "unsafe")
        XCTAssertEqual(part.first?["fix"] as? String, "unsafe", "the declaration outside Features still counts")
        XCTAssertEqual(part.first?["file"] as? String, "Features/Export/ExportView.swift")
        XCTAssertTrue((part.first?["message"] as? String)?.contains("its own ProgressView in Legacy/ProgressView.swift") == true, "\(part)")
        XCTAssertEqual(part.first?["fingerprint"] as? String, full.first?["fingerprint"] as? String)
        let summary = CLIRun(["scan", "Features"], in: tree.path).output
        XCTAssertTrue(summary.contains("(1 file scanned)"), summary)
        // fix judges the same way: nothing safe to do in Features.
        XCTAssertTrue(CLIRun(["fix", "--dry-run", "Features"], in: tree.path).output.isEmpty)

        // Outside a work tree and with no configuration, the scanned folder is all there is.
        let plain = try TemporaryTree(files)
        XCTAssertEqual(try findings(CLIRun(["scan", "--format", "json", "Features"], in: plain.path)).first?["fix"] as? String, "safe")
        try plain.write(".loadaudit.yml", "# the project root\n")
        XCTAssertEqual(try findings(CLIRun(["scan", "--format", "json", "Features"], in: plain.path)).first?["fix"] as? String, "unsafe")
    }

    func testMalformedBaselinesAreErrorsThatNameTheFile() throws {
        let tree = try TemporaryTree(["A.swift": screen, "bad.json": "{\"version\": 1, \"findings\": [", "old.json": "{\"version\": 9, \"tool\": \"loadaudit\", \"findings\": []}"])
        let broken = CLIRun(["scan", "--baseline", "bad.json", "A.swift"], in: tree.path)
        XCTAssertEqual(broken.status, 2)
        XCTAssertTrue(broken.errors.contains("bad.json:1:29: not valid JSON: the file ends where a value should be"), broken.errors)
        let future = CLIRun(["scan", "--baseline", "old.json", "A.swift"], in: tree.path)
        XCTAssertTrue(future.errors.contains("unsupported baseline version 9"), future.errors)
        let missing = CLIRun(["scan", "--baseline", "none.json", "A.swift"], in: tree.path)
        XCTAssertTrue(missing.errors.contains("none.json: no such baseline"), missing.errors)
        XCTAssertEqual(CLIRun(["scan", "--strict-baseline", "A.swift"], in: tree.path).status, 2)
    }

    func testOutputWritesTheReportAndTheTerminalGetsASummary() throws {
        let tree = try TemporaryTree(["A.swift": screen])
        let run = CLIRun(["scan", "--format", "json", "--output", "report.json", "."], in: tree.path)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.output, "loadaudit: 2 findings in 1 file. Report: report.json\n")
        let report = try Data(contentsOf: tree.url.appendingPathComponent("report.json"))
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: report))
    }
}
