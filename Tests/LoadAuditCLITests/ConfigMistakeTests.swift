import Foundation
import XCTest

/// A `.loadaudit.yml` mistake must fail CI with the pattern or key named, never pass having scanned
/// nothing (or everything) or run no rule.
final class ConfigMistakeTests: XCTestCase {
    let spinner = "import SwiftUI\nstruct V: View { var body: some View { ProgressView() } }\n"

    func project(config: String) throws -> TemporaryTree {
        try TemporaryTree([
            ".loadaudit.yml": config, "Features/Games/Games.swift": spinner, "Features/Trips/Trips.swift": spinner,
            "Legacy/Old.swift": spinner,
        ])
    }

    func testAPatternThatMatchesNoFileStopsTheRun() throws {
        let cases: [(String, String)] = [
            ("include: [\"Featurs/**\"]\n", "include: 'Featurs/**' matches no .swift file"),
            ("exclude: [\"Legacy/Generated/**\"]\n", "exclude: 'Legacy/Generated/**' matches no .swift file"),
            ("include: [\"Features/**\", \"Nope\"]\nexclude: [\"Gone\"]\n", "include: 'Nope', exclude: 'Gone' match no .swift file"),
        ]
        for (config, message) in cases {
            let tree = try project(config: config)
            for command in [["scan", "."], ["baseline", "--output", "b.json", "."]] {
                let run = CLIRun(command, in: tree.path)
                XCTAssertEqual(run.status, 2, "\(command) \(config)")
                XCTAssertTrue(run.errors.contains("loadaudit: error: .loadaudit.yml: \(message)\n"), run.errors)
                XCTAssertEqual(run.output, "", "no report of a scan the configuration got wrong")
            }
        }
    }

    /// A pattern is relative to the configuration's folder, `./` or not; a scan of a subfolder does not
    /// judge patterns that point elsewhere.
    func testPatternsWrittenTheUsualWaysWork() throws {
        for config in ["include: [\"./Features/**\"]\n", "include: [\"{Features,Legacy}/**\"]\nexclude: [\"[L]egacy\"]\n"] {
            let tree = try project(config: config)
            let run = CLIRun(["scan", "--format", "json", "."], in: tree.path)
            XCTAssertEqual(run.status, 1, run.errors)
            XCTAssertTrue(run.output.contains("\"filesScanned\" : 2"), run.output)
            XCTAssertFalse(run.output.contains("Legacy/Old.swift"), run.output)
        }
        let tree = try project(config: "exclude: [\"Legacy\"]\n")
        let run = CLIRun(["scan", "Features/Games"], in: tree.path)
        XCTAssertEqual(run.status, 1, run.errors)
        XCTAssertFalse(run.errors.contains("matches no"), run.errors)
    }

    func testNoRuleToRunIsAnError() throws {
        let tree = try project(config: "built-in-rules: false\n")
        for command in [["scan", "."], ["rules"], ["fix", "--dry-run", "."]] {
            let run = CLIRun(command, in: tree.path)
            XCTAssertEqual(run.status, 2, "\(command)")
            XCTAssertEqual(run.errors, "loadaudit: error: .loadaudit.yml: built-in-rules is false and no rules file is named: no rule would run\n")
        }
        let rules = try TemporaryTree(["team.yml": "rules:\n  - id: old-spinner\n    component: OldSpinner\n    message: Use LoadingSpinner.\n"])
        let withRules = CLIRun(["scan", "--rules", rules.path + "/team.yml", "."], in: tree.path)
        XCTAssertEqual(withRules.status, 0, withRules.errors)
    }

    /// A rule id that a `--rules` file and the configuration's rules file both define is reported in
    /// the second file, at its `id:`, not at `.loadaudit.yml`; the mistakes of both files are
    /// reported together, one error a line (issue 35, item 4).
    func testRulesFileMistakesAreReportedWhereTheyAreAllOfThem() throws {
        let rule = { (id: String, component: String) in "  - id: \(id)\n    component: \(component)\n    message: m\n" }
        let tree = try project(config: "rules: [rules/team.yml]\n")
        try tree.write("mine.yml", "version: 1\nrules:\n" + rule("old-badge", "OldBadge") + "  - id: pat\n    kind: pattern\n    match: foo(\n    message: m\n")
        try tree.write("rules/team.yml", "version: 1\nrules:\n" + rule("team-badge", "TeamBadge") + rule("old-badge", "OtherBadge"))
        let run = CLIRun(["scan", "--rules", "mine.yml", "."], in: tree.path)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.output, "")
        XCTAssertEqual(run.errors, """
            loadaudit: error: mine.yml:8:16: match does not parse as Swift: ')' is missing (near 'foo(')
            loadaudit: error: rules/team.yml:6:9: rule id 'old-badge' is already defined at mine.yml:3

            """)
    }

    /// rules/README's advice, the team file named in `.loadaudit.yml` and again with `--rules`
    /// (written another way): one file, read once, not its every rule "already defined".
    func testTheSameRulesFileNamedTwiceIsReadOnce() throws {
        let rule = { (id: String, component: String) in "  - id: \(id)\n    component: \(component)\n    message: m\n" }
        let tree = try project(config: "built-in-rules: false\nrules: [rules/team.yml]\n")
        try tree.write("rules/team.yml", "version: 1\nrules:\n" + rule("old-badge", "OldBadge") + rule("old-spinner", "ProgressView"))
        for named in ["rules/team.yml", "./rules/../rules/team.yml", tree.path + "/rules/team.yml"] {
            let run = CLIRun(["scan", "--rules", named, "--format", "json", "."], in: tree.path)
            XCTAssertEqual(run.status, 1, "\(named): \(run.errors)")
            XCTAssertEqual(run.errors, "", named)
            XCTAssertTrue(run.output.contains("\"filesScanned\" : 3"), run.output)
        }
        let listed = CLIRun(["rules", "--rules", "rules/team.yml"], in: tree.path)
        XCTAssertEqual(listed.status, 0, listed.errors)
    }

    /// `rules test` without a file tests the rules a scan here would run: `built-in-rules: false`
    /// leaves the built-in files out, and the configuration's rules files are tested.
    func testRulesTestWithoutAFileHonoursTheConfiguration() throws {
        let team = "version: 1\nrules:\n  - id: old-badge\n    component: OldBadge\n    message: m\n    examples:\n      match:\n        - 'let b = ↓OldBadge()'\n"
        let tree = try project(config: "built-in-rules: false\nrules: [rules/team.yml]\n")
        try tree.write("rules/team.yml", team)
        let run = CLIRun(["rules", "test"], in: tree.path)
        XCTAssertEqual(run.status, 0, run.output + run.errors)
        XCTAssertTrue(run.output.hasPrefix("rules/team.yml: ") && run.output.hasSuffix(" checks of 1 rules: all pass\n"), run.output)
        XCTAssertEqual(run.output.split(separator: "\n").count, 1, "no built-in file tested: \(run.output)")
        let none = try project(config: "built-in-rules: false\n")
        let empty = CLIRun(["rules", "test"], in: none.path)
        XCTAssertEqual(empty.status, 2)
        XCTAssertEqual(empty.errors, "loadaudit: error: .loadaudit.yml: built-in-rules is false and no rules file is named: no rule would run\n")
        let both = try project(config: "rules: [rules/team.yml]\n")
        try both.write("rules/team.yml", team)
        let withBuiltIn = CLIRun(["rules", "test"], in: both.path)
        XCTAssertTrue(withBuiltIn.output.contains("\nrules/team.yml: "), withBuiltIn.output)
        XCTAssertTrue(withBuiltIn.output.hasPrefix("loading-migration: "), withBuiltIn.output)
    }
}
