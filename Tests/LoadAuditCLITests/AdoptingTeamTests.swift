import Foundation
import LoadAuditCLI
import XCTest
import Yams

/// What a team adopting loadaudit for its own migration meets (issue 35): its own rules file, a
/// baseline, the CI gate, vendored code named on the command line. Each test is one scripted stumble.
final class AdoptingTeamTests: XCTestCase {
    let spinner = "import SwiftUI\nlet p = ProgressView()\n"

    /// The files the JSON report of a run names, in its order.
    func reportedFiles(_ run: CLIRun, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let document = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        let findings = try XCTUnwrap(document?["findings"] as? [[String: Any]], run.output + run.errors, file: file, line: line)
        return findings.compactMap { $0["file"] as? String }
    }

    // MARK: 1. a folder named on the command line is scanned, whatever ignores it

    /// A vendored folder that `.gitignore` leaves out (and whose name, `Pods`, is one of the skipped
    /// dependency folders), named explicitly: its files are scanned. Below it, the ignore files and the
    /// skipped names still apply (the repository's `*.generated.swift`, the folder's own `.gitignore`, a
    /// nested `Pods`). A scan of the whole repository still leaves it out.
    func testAnIgnoredFolderNamedOnTheCommandLineIsScanned() throws {
        let tree = try TemporaryTree([
            ".gitignore": "Pods/\n*.generated.swift\n",
            "App/Screen.swift": spinner,
            "Pods/Lib/Spinner.swift": spinner,
            "Pods/Lib/Mocks.generated.swift": spinner,
            "Pods/Lib/.gitignore": "Build/\n",
            "Pods/Lib/Build/Copy.swift": spinner,
            "Pods/Lib/Pods/Nested.swift": spinner,
            "Pods/Other/Spinner.swift": spinner,
        ])
        try tree.git(["init", "-q"])
        let lib = CLIRun(["scan", "--format", "json", "Pods/Lib"], in: tree.path)
        XCTAssertEqual(lib.status, 1, lib.errors)
        XCTAssertEqual(try reportedFiles(lib), ["Pods/Lib/Spinner.swift"])
        let pods = CLIRun(["scan", "--format", "json", "Pods"], in: tree.path)
        XCTAssertEqual(pods.status, 1, pods.errors)
        XCTAssertEqual(try reportedFiles(pods), ["Pods/Lib/Spinner.swift", "Pods/Other/Spinner.swift"])
        // Named as `.` from inside, and beside a folder that is not ignored.
        let inside = CLIRun(["scan", "--format", "json", "."], in: tree.url.appendingPathComponent("Pods/Lib").path)
        XCTAssertEqual(try reportedFiles(inside), ["Spinner.swift"], inside.errors)
        let both = CLIRun(["scan", "--format", "json", "App", "Pods/Lib"], in: tree.path)
        XCTAssertEqual(try reportedFiles(both), ["App/Screen.swift", "Pods/Lib/Spinner.swift"], both.errors)
        // The whole repository: the vendored folder is left out, as before.
        let all = CLIRun(["scan", "--format", "json", "."], in: tree.path)
        XCTAssertEqual(try reportedFiles(all), ["App/Screen.swift"], all.errors)
        // fix rewrites what scan reports there.
        let fix = CLIRun(["fix", "--dry-run", "Pods/Lib"], in: tree.path)
        XCTAssertEqual(fix.status, 1, fix.errors)
        XCTAssertTrue(fix.output.contains("+++ b/Pods/Lib/Spinner.swift"), fix.output)
        XCTAssertFalse(fix.output.contains("Mocks.generated"), fix.output)
    }

    /// The named folder is re-included by its own name, which git must not read as a pattern: `[1]`
    /// would match `1`, `*` anything, and a trailing blank would be dropped.
    func testANamedFolderWhoseNameLooksLikeAPatternIsScanned() throws {
        let odd = "Vendor [1]*? "
        let tree = try TemporaryTree([".gitignore": "Vendor*/\n", "\(odd)/Lib/Spinner.swift": spinner, "Vendor 1x/Lib/Spinner.swift": spinner])
        try tree.git(["init", "-q"])
        let run = CLIRun(["scan", "--format", "json", odd + "/Lib"], in: tree.path)
        XCTAssertEqual(try reportedFiles(run), ["\(odd)/Lib/Spinner.swift"], run.errors)
    }

    // MARK: 2. a scan of no Swift file is an error, unless allowed

    /// A misspelt folder that exists but holds no Swift, or only a binary `.swift`: in CI that gate
    /// would check nothing. `scan`, `fix` and `baseline` stop (exit 2, one line naming the paths);
    /// `--allow-empty` lets it pass with the warning, where none is normal.
    func testAScanOfNoSwiftFileIsAnErrorUnlessAllowed() throws {
        let tree = try TemporaryTree([
            "App/A.swift": spinner, "Docs/README.md": "no Swift here\n", "Tools/Tool.swift": "",
        ])
        try tree.write("Tools/Tool.swift", Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x00, 0x1A, 0x0A]))
        for command in ["scan", "fix", "baseline"] {
            let empty = CLIRun([command, "Docs"], in: tree.path)
            XCTAssertEqual(empty.status, 2, "\(command): \(empty.output)")
            XCTAssertEqual(empty.errors, "loadaudit: error: no .swift file to scan under Docs (--allow-empty lets a run over none pass)\n", command)
            XCTAssertFalse(FileManager.default.fileExists(atPath: tree.path + "/Docs/.loadaudit-baseline.json"), "\(command): no baseline of nothing")
            let binary = CLIRun([command, "Tools"], in: tree.path)
            XCTAssertEqual(binary.status, 2, "\(command): \(binary.output)")
            XCTAssertEqual(binary.errors, """
                loadaudit: warning: Tools/Tool.swift: binary content (NUL bytes), not Swift source: skipped
                loadaudit: error: no .swift file could be scanned under Tools: 1 skipped (--allow-empty lets a run over none pass)

                """, command)
            let allowed = CLIRun([command, "--allow-empty", "Docs"], in: tree.path)
            XCTAssertEqual(allowed.status, 0, "\(command): \(allowed.errors)")
            XCTAssertEqual(allowed.errors, command == "fix" ? "" : "loadaudit: warning: no .swift files found under Docs\n", command)
        }
        // A folder with Swift beside one without: that is a scan.
        XCTAssertEqual(CLIRun(["scan", "App", "Docs"], in: tree.path).status, 1)
    }

    /// The pre-commit framework passes the staged Swift files: all of them may be skipped (binary), and
    /// a commit of such files is normal, so the hook allows a scan of none.
    func testThePreCommitHookAllowsAScanOfNoFile() throws {
        let hooks = try XCTUnwrap(try Yams.load(yaml: String(contentsOf: Repository.root.appendingPathComponent(".pre-commit-hooks.yaml"), encoding: .utf8)) as? [[String: Any]])
        let entry = try XCTUnwrap(hooks.first?["entry"] as? String).split(separator: " ").map(String.init)
        let tree = try TemporaryTree()
        try tree.write("Tool.swift", Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x00, 0x1A, 0x0A]))
        let run = CLIRun(Array(entry.dropFirst()) + ["Tool.swift"], in: tree.path)
        XCTAssertEqual(run.status, 0, run.errors)
        // The action lets a repository choose, and checks by default.
        let action = try XCTUnwrap(try Yams.load(yaml: String(contentsOf: Repository.root.appendingPathComponent("action.yml"), encoding: .utf8)) as? [String: Any])
        let input = try XCTUnwrap((action["inputs"] as? [String: Any])?["allow-empty"] as? [String: Any])
        XCTAssertEqual(input["default"] as? String, "false")
    }

    // MARK: 6. a rule switched off is not progress

    let dotsAndSpinner = "import SwiftUI\nlet a = LoadingDots()\nlet b = LoadingDots()\nlet c = ProgressView()\n"

    /// Baseline entries of a rule that did not run (`severity: off` in .loadaudit.yml, or not selected
    /// with `--rule`) are not checked: neither existing nor fixed, no "ratchet the baseline down", not
    /// failing `--strict-baseline`; and `baseline` keeps them as they were.
    func testBaselineEntriesOfARuleSwitchedOffAreNotCheckedNotFixed() throws {
        for switchedOff in [["--config", "off.yml"], ["--rule", "raw-progress-view"]] {
            let tree = try TemporaryTree(["App/A.swift": dotsAndSpinner, "off.yml": "severity:\n  loading-dots: off\n"])
            XCTAssertEqual(CLIRun(["baseline", "--no-config", "--output", "bl.json", "App"], in: tree.path).status, 0)
            let run = CLIRun(["scan", "--baseline", "bl.json", "--strict-baseline"] + switchedOff + ["App"], in: tree.path)
            XCTAssertEqual(run.status, 0, "\(switchedOff): \(run.output)")
            XCTAssertFalse(run.output.contains("Fixed since the baseline") || run.output.contains("Ratchet"), "\(switchedOff): \(run.output)")
            XCTAssertTrue(run.output.contains("Not checked: 2 baseline entries of rules that did not run (loading-dots)\n"), "\(switchedOff): \(run.output)")
            XCTAssertTrue(run.output.hasSuffix("0 new findings, 1 existing, 0 fixed since the baseline, 2 not checked (1 file scanned)\n"),
                          "\(switchedOff): \(run.output)")
            let json = CLIRun(["scan", "--format", "json", "--baseline", "bl.json"] + switchedOff + ["App"], in: tree.path)
            XCTAssertTrue(json.output.contains("\"fixedSinceBaseline\" : 0,\n    \"new\" : 0,\n    \"notChecked\" : 2,"), json.output)
            let markdown = CLIRun(["scan", "--format", "markdown", "--baseline", "bl.json"] + switchedOff + ["App"], in: tree.path)
            XCTAssertTrue(markdown.output.contains("2 baseline entries were not checked: their rules did not run (`loading-dots`)."), markdown.output)
            XCTAssertFalse(markdown.output.contains("fixed since the baseline"), markdown.output)
            // Re-baselining with the rule off keeps its entries.
            XCTAssertEqual(CLIRun(["baseline", "--output", "bl.json"] + switchedOff + ["App"], in: tree.path).status, 0)
            let baseline = try String(contentsOf: tree.url.appendingPathComponent("bl.json"), encoding: .utf8)
            XCTAssertEqual(baseline.components(separatedBy: "\"ruleId\" : \"loading-dots\"").count - 1, 2, "\(switchedOff): \(baseline)")
        }
    }

    /// A rules file's `enabled: false`: the rule does not run, but it is still a rule: a suppression
    /// that names it is fine, and its baseline entries are not checked.
    func testARuleDisabledInItsRulesFileIsStillARule() throws {
        let rules = paymentsRules + "\n" + """
              - id: old-card
                kind: pattern
                match: "OldCard()"
                replace: "Card()"
                fix: safe
                message: OldCard is gone; use Card.
            """
        let tree = try TemporaryTree([
            "team.yml": rules, "off.yml": rules.replacingOccurrences(of: "  - id: old-card\n", with: "  - id: old-card\n    enabled: false\n"),
            "App/A.swift": "let a = OldBadge(1)\n// loadaudit:ignore old-card - the legacy screen keeps it\nlet b = OldCard()\nlet c = OldCard()\n",
        ])
        XCTAssertEqual(CLIRun(["baseline", "--rules", "team.yml", "--output", "bl.json", "App"], in: tree.path).status, 0)
        let run = CLIRun(["scan", "--rules", "off.yml", "--baseline", "bl.json", "App"], in: tree.path)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertFalse(run.output.contains("unused-suppression"), run.output)
        XCTAssertTrue(run.output.contains("Not checked: 1 baseline entry of rules that did not run (old-card)\n"), run.output)
        XCTAssertTrue(run.output.hasSuffix("0 new findings, 1 existing, 0 fixed since the baseline, 1 not checked (1 file scanned)\n"), run.output)
        // A rule no rules file defines any more is gone, not switched off: its entries are fixed.
        try tree.write("badge.yml", rules.components(separatedBy: "  - id: old-card\n")[0])
        let gone = CLIRun(["scan", "--rules", "badge.yml", "--baseline", "bl.json", "App"], in: tree.path)
        XCTAssertTrue(gone.output.contains("Fixed since the baseline: 1 entry no longer found\n"), gone.output)
    }

    // MARK: 3. words that name the rules file's migration, not the loading one

    let paymentsRules = """
        name: payments-ds-migration
        rules:
          - id: old-badge
            kind: pattern
            match: "OldBadge($N)"
            replace: "Badge($N)"
            fix: safe
            message: OldBadge is gone; use Badge.
        """

    /// Another team's rules file: the reports and the progress page name its migration (its `title:`,
    /// else its `name:`) and say "findings", never "loading indicators" or "Loading UI".
    func testAnotherTeamsRulesAreNamedByTheirFileNotAsTheLoadingMigration() throws {
        let tree = try TemporaryTree(["team.yml": paymentsRules, "App/A.swift": "let a = Badge(1)\n"])
        let text = CLIRun(["scan", "--rules", "team.yml", "App"], in: tree.path)
        XCTAssertEqual(text.output, "No findings in 1 file scanned.\n", text.errors)
        let markdown = CLIRun(["scan", "--rules", "team.yml", "--format", "markdown", "App"], in: tree.path)
        XCTAssertEqual(markdown.output, "## loadaudit: 0 findings\n\nNo findings in 1 file.\n")
        let html = CLIRun(["scan", "--rules", "team.yml", "--format", "html", "App"], in: tree.path)
        XCTAssertTrue(html.output.contains("<h1>payments-ds-migration: what is left</h1>"), html.output)
        XCTAssertFalse(html.output.lowercased().contains("loading"), html.output)
        try tree.write("titled.yml", "title: Payments design system\n" + paymentsRules)
        let titled = CLIRun(["scan", "--rules", "titled.yml", "--format", "html", "App"], in: tree.path)
        XCTAssertTrue(titled.output.contains("<h1>Payments design system: what is left</h1>"), titled.output)
        // The progress page, over a history of one commit.
        try tree.git(["init", "-q"])
        try tree.git(["add", "."])
        try tree.git(["commit", "-q", "-m", "start"], date: "2026-01-05")
        let progress = CLIRun(["progress", "--rules", "titled.yml", "--html", "progress.html", "App"], in: tree.path)
        XCTAssertEqual(progress.status, 0, progress.errors)
        let page = try String(contentsOf: tree.url.appendingPathComponent("progress.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("<h1>Payments design system progress</h1>"), page)
        XCTAssertFalse(page.contains("Loading UI"), page)
        // The built-in loading rules keep their words.
        try tree.write("App/B.swift", "import SwiftUI\nlet b = LoadingSpinner(size: .small)\n")
        XCTAssertEqual(CLIRun(["scan", "App/B.swift"], in: tree.path).output, "No deprecated loading indicators in 1 file scanned.\n")
        XCTAssertTrue(CLIRun(["scan", "--format", "html", "App/B.swift"], in: tree.path).output.contains("<h1>Loading UI migration: what is left</h1>"))
    }

    /// A manual finding of a rule with no replacement: nothing is rewritten, so no argument is
    /// "dropped"; the message says what helps the person who does the change.
    func testAManualFindingWithNoReplacementListsNoDroppedArguments() throws {
        let tree = try TemporaryTree(["Legacy.swift": "import UIKit\nlet spinner = UIActivityIndicatorView(frame: .zero)\nlet dots = LoadingDots(color: .orange)\n"])
        let run = CLIRun(["scan", "--format", "json", "Legacy.swift"], in: tree.path)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let messages = try XCTUnwrap(document["findings"] as? [[String: Any]]).compactMap { $0["message"] as? String }
        XCTAssertEqual(messages, [
            "A UIKit activity indicator; the screen's loading state moves to LoadingSpinner too.",
            "LoadingDots is removed and not replaced; delete it (a static label or LoadingSpinner if a wait must show).",
        ])
    }

    // MARK: 5. rewrites that leave no debris

    let tagRules = """
        rules:
          - id: old-tag
            kind: pattern
            match: "OldTag(count: $N, legacy: $L, style: $S)"
            replace: "Tag(count: $N, style: $S)"
            fix: safe
            message: OldTag is gone; use Tag.
            examples:
              fix:
                - before: "OldTag(count: 1, legacy: true, style: .x)"
                  after: "Tag(count: 1, style: .x)"
          - id: old-button
            kind: pattern
            match: "OldButton($TITLE, legacy: $L) { $$$BODY }"
            replace: "Button($TITLE) { $$$BODY }"
            fix: safe
            message: OldButton is gone; use Button.
        """

    /// An argument a pattern rule drops, on a line of its own, takes its line with it: no line of
    /// blanks is left (nor trailing blanks where something stands before it).
    /// Two absorbed modifiers at the end of a file with no final line break: the first, alone on its
    /// line, takes its line break; the last, on the last line, takes the break before it, the same one.
    /// The two removals are one (found by the fuzzer: `fix` stopped on "overlapping edit").
    func testAbsorbedModifiersOnTheFilesLastLinesAreOneRemoval() throws {
        let tree = try TemporaryTree(["V.swift": "import SwiftUI\nlet v = ProgressView()\n    .scaleEffect(0.5)\n    .tint(.red)"])
        let run = CLIRun(["fix", "--no-config", "V.swift"], in: tree.path)
        XCTAssertEqual(run.status, 0, run.output + run.errors)
        XCTAssertEqual(try String(contentsOf: tree.url.appendingPathComponent("V.swift"), encoding: .utf8),
                       "import SwiftUI\nlet v = LoadingSpinner(size: .small)")
    }

    func testADroppedArgumentOnItsOwnLineTakesTheLine() throws {
        let tree = try TemporaryTree(["team.yml": tagRules, "A.swift": """
            let a = OldTag(
                count: 3,
                legacy: true,
                style: .x
            )
            let b = OldTag(count: 3,
                           legacy: true,
                           style: .x)
            let c = OldTag(count: 3, legacy: true,
                           style: .x)

            """])
        let run = CLIRun(["fix", "--unsafe", "--rules", "team.yml", "A.swift"], in: tree.path)
        XCTAssertEqual(run.status, 0, run.output + run.errors)
        XCTAssertEqual(try String(contentsOf: tree.url.appendingPathComponent("A.swift"), encoding: .utf8), """
            let a = Tag(
                count: 3,
                style: .x
            )
            let b = Tag(count: 3,
                           style: .x)
            let c = Tag(count: 3,
                           style: .x)

            """)
    }

    /// A replacement of several lines is shown as code: its later lines in the gutter of the source
    /// line above, where they would stand in the file.
    func testAMultiLineReplacementIsShownInTheSourcesGutter() throws {
        let tree = try TemporaryTree(["team.yml": tagRules, "B.swift": """
            struct V {
                var body: some View {
                    OldButton("Done", legacy: true) {
                        dismiss()
                    }
                }
            }

            """])
        let run = CLIRun(["scan", "--rules", "team.yml", "B.swift"], in: tree.path)
        XCTAssertTrue(run.output.hasPrefix("""
            B.swift:3:9: warning: OldButton is gone; use Button. (the rewrite drops $L (true)) [old-button]
             3 |         OldButton("Done", legacy: true) {
               |         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
               = unsafe fix: Button("Done") { dismiss()
               |          }

            """), run.output)
    }

    /// The findings `fix --dry-run` leaves for a person are where `scan` puts them: in the files as
    /// they are, not as the fix would leave them (a removed modifier line moves them up). After a real
    /// fix, they are where the fix left them.
    func testTheFindingsAFixLeavesAreListedWhereTheyAre() throws {
        let text = """
            import SwiftUI
            struct V: View {
                var body: some View {
                    ProgressView()
                        .progressViewStyle(.circular)
                    LoadingDots()
                }
            }

            """
        let tree = try TemporaryTree(["V.swift": text])
        let scan = CLIRun(["scan", "--format", "json", "V.swift"], in: tree.path)
        XCTAssertTrue(scan.output.contains("\"line\" : 6,"), scan.output)
        let dryRun = CLIRun(["fix", "--dry-run", "V.swift"], in: tree.path)
        XCTAssertTrue(dryRun.errors.contains("1 manual finding left for a person:\n  V.swift:6:9: LoadingDots is removed"), dryRun.errors)
        let fix = CLIRun(["fix", "V.swift"], in: tree.path)
        XCTAssertTrue(fix.output.contains("1 manual finding left for a person:\n  V.swift:5:9: LoadingDots is removed"), fix.output)
        let after = CLIRun(["scan", "--format", "json", "V.swift"], in: tree.path)
        XCTAssertTrue(after.output.contains("\"line\" : 5,"), after.output)
    }

    /// A finding inside a call the fix rewrites (the label of `ProgressView("Restoring progress…")`,
    /// which `loading-label-style` reports) is listed by a dry run where the scan reports it, not at
    /// the start of the rewrite.
    func testADryRunListsAFindingInsideARewrittenCallWhereTheScanReportsIt() throws {
        let text = "import SwiftUI\n\nstruct V: View {\n    var body: some View {\n        ProgressView(\"Restoring progress…\")\n    }\n}\n"
        let tree = try TemporaryTree(["V.swift": text])
        let scan = CLIRun(["scan", "--format", "xcode", "V.swift"], in: tree.path)
        XCTAssertTrue(scan.output.contains("V.swift:5:22: note: A loading label"), scan.output)
        let dryRun = CLIRun(["fix", "--dry-run", "V.swift"], in: tree.path)
        XCTAssertTrue(dryRun.errors.contains("1 manual finding left for a person:\n  V.swift:5:22: A loading label"), dryRun.errors)
    }
}
