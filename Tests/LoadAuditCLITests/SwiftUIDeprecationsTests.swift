import Foundation
import LoadAuditCLI
import XCTest

/// The second built-in rules file, written only as pattern rules, end to end on its example app.
final class SwiftUIDeprecationsTests: XCTestCase {
    static let fixture = Repository.root.appendingPathComponent("fixtures/SwiftUIDeprecations")

    func testTheExampleAppsDeprecationsAreFoundAndTheTrapsAreNot() throws {
        let run = CLIRun(["scan", "--format", "json", "--fail-on", "never", "."], in: Self.fixture.path)
        XCTAssertEqual(run.status, 0, run.errors)
        let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        let findings = try XCTUnwrap(report?["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.map { "\($0["file"]!):\($0["line"]!) \($0["ruleId"]!) \($0["fix"]!)" }, [
            "Screens/CoverArtView.swift:12 edges-ignoring-safe-area-all safe",
            "Screens/CoverArtView.swift:17 corner-radius unsafe",
            "Screens/CoverArtView.swift:26 edges-ignoring-safe-area safe",
            "Screens/CoverArtView.swift:27 navigation-bar-title safe",
            "Screens/SettingsScreen.swift:10 navigation-view unsafe",
            "Screens/SettingsScreen.swift:14 on-change-perform manual",
            "Screens/SettingsScreen.swift:16 accent-color unsafe",
            "Screens/SettingsScreen.swift:21 foreground-color unsafe",
            "Screens/SettingsScreen.swift:26 navigation-bar-title-display-mode safe",
        ])
    }

    /// Every rewritten file parses, the comments and line breaks stay, and a second fix changes nothing.
    func testFixRewritesOnlyTheDeprecatedCallsAndASecondFixIsEmpty() throws {
        let tree = try TemporaryTree()
        for name in ["SettingsScreen.swift", "CoverArtView.swift", "Traps.swift"] {
            try tree.write("Screens/" + name, try String(contentsOf: Self.fixture.appendingPathComponent("Screens/" + name), encoding: .utf8))
        }
        let traps = try String(contentsOf: tree.url.appendingPathComponent("Screens/Traps.swift"), encoding: .utf8)
        let fix = CLIRun(["fix", "--unsafe", "--no-config", "--rules", "swiftui-deprecations", "."], in: tree.path)
        XCTAssertEqual(fix.status, 0, fix.output + fix.errors)
        XCTAssertTrue(fix.output.hasPrefix("Fixed 2 files: 8 edits"), fix.output)
        let settings = try String(contentsOf: tree.url.appendingPathComponent("Screens/SettingsScreen.swift"), encoding: .utf8)
        let indent = String(repeating: " ", count: 24)
        XCTAssertTrue(settings.contains("\(indent).foregroundStyle(\n\(indent)    notificationsOn ? .secondary : .red\n\(indent))\n"), settings)
        XCTAssertTrue(settings.contains(".tint(.orange) // the brand colour"), settings)
        XCTAssertTrue(settings.contains(".onChange(of: nickname, perform: validateNickname)"), "manual findings are never rewritten")
        XCTAssertEqual(try String(contentsOf: tree.url.appendingPathComponent("Screens/Traps.swift"), encoding: .utf8), traps)
        let again = CLIRun(["fix", "--dry-run", "--unsafe", "--no-config", "--rules", "swiftui-deprecations", "."], in: tree.path)
        XCTAssertEqual(again.output, "")
        XCTAssertTrue(again.errors.hasPrefix("Nothing to fix."), again.errors)
        let syntax = CLIRun(["scan", "--no-config", "--rules", "swiftui-deprecations", "--fail-on", "never", "."], in: tree.path)
        XCTAssertFalse(syntax.errors.contains("syntax error"), syntax.errors)
    }

    func testRulesTestPassesOnTheBuiltInFilesAndFailsOnABrokenExample() throws {
        let builtIn = CLIRun(["rules", "test"])
        XCTAssertEqual(builtIn.status, 0, builtIn.output)
        XCTAssertTrue(builtIn.output.contains("swiftui-deprecations: "), builtIn.output)
        XCTAssertTrue(builtIn.output.contains(": all pass"), builtIn.output)

        let tree = try TemporaryTree(["team.yml": """
        version: 1
        rules:
          - id: old-badge
            kind: pattern
            match: OldBadge
            replace: Badge
            fix: safe
            message: OldBadge is gone; use Badge.
            examples:
              match:
                - 'let b = ↓OldBadge(count: 3)'
              fix:
                - before: 'OldBadge(count: 3)'
                  after: 'NewBadge(count: 3)'
        """])
        let broken = CLIRun(["rules", "test", "team.yml"], in: tree.path)
        XCTAssertEqual(broken.status, 1, broken.output + broken.errors)
        XCTAssertTrue(broken.output.contains("FAIL team.yml:3: old-badge: fix 1: the fix gives other code"), broken.output)
        XCTAssertTrue(broken.output.contains("    | NewBadge(count: 3)\n  actual:\n    | Badge(count: 3)"), broken.output)
        XCTAssertTrue(broken.output.hasSuffix("team.yml: 6 checks of 1 rules: 1 failed\n"), broken.output)

        let missing = CLIRun(["rules", "test", "nope.yml"], in: tree.path)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.errors.contains("nope.yml"), missing.errors)
    }

    /// `rules test` runs a file's rules together on each `match` example: a rule whose own example
    /// another rule reports (one finding per piece of code) fails; one that wins prints an OVERLAP line.
    func testRulesTestFlagsOverlappingRules() throws {
        let tree = try TemporaryTree(["team.yml": """
        version: 1
        rules:
          - id: any-spinner
            kind: pattern
            match: ProgressView()
            message: A spinner.
            examples:
              match: ['HStack { ↓ProgressView() }']
          - id: list-spinner
            kind: pattern
            match: ProgressView()
            inside: List
            message: A spinner in a list.
            examples:
              match: ['List { ↓ProgressView() }']
          - id: general-spinner
            kind: pattern
            match: ProgressView()
            message: Another spinner rule.
            examples:
              match: ['VStack { ↓ProgressView() }']
        """])
        let run = CLIRun(["rules", "test", "team.yml"], in: tree.path)
        XCTAssertEqual(run.status, 1, run.output + run.errors)
        XCTAssertEqual(run.output.split(separator: "\n").filter { $0.hasPrefix("FAIL") || $0.hasPrefix("OVERLAP") }, [
            "FAIL team.yml:16: general-spinner: match 1: any-spinner reports this code instead (as specific, and first in the rules' order): this rule never does here",
            "OVERLAP team.yml:3: any-spinner: match 1: general-spinner matches it too; any-spinner reports it (as specific, and first in the rules' order)",
            "OVERLAP team.yml:9: list-spinner: match 1: any-spinner matches it too; list-spinner reports it (more conditions on the context: 1 against 0)",
            "OVERLAP team.yml:9: list-spinner: match 1: general-spinner matches it too; list-spinner reports it (more conditions on the context: 1 against 0)",
        ])
        XCTAssertTrue(run.output.hasSuffix("team.yml: 12 checks of 3 rules: 1 failed\n"), run.output)
    }

    func testRulesExplainShowsThePatternAndTheExamples() {
        let run = CLIRun(["rules", "explain", "foreground-color", "--rules", "swiftui-deprecations"])
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(run.output.hasPrefix("foreground-color (pattern, warning, fix: unsafe) from rules/swiftui-deprecations.yml:"), run.output)
        XCTAssertTrue(run.output.contains("finds:    $VIEW.foregroundColor($COLOR)\nreplaces: $VIEW.foregroundStyle($COLOR)\n"), run.output)
        XCTAssertTrue(run.output.contains("  finds (1):\n"), run.output)
        // A rotating-text rule shows the names it follows (its clocks are the rules file's data).
        let rotating = CLIRun(["rules", "explain", "rotating-loading-message"])
        XCTAssertTrue(rotating.output.contains("""
            shown by:          Label, Text, accessibilityLabel, navigationTitle
            set on views:      text, title
            set by:            setTitle
            closures:          Timer (a repeating Timer), asyncAfter (DispatchQueue.main.asyncAfter), scheduledTimer (a repeating Timer), setEventHandler (a DispatchSourceTimer)
            targets:           CADisplayLink (a CADisplayLink), scheduledTimer (a repeating Timer)
            waits:             sleep (a Task.sleep loop)
            publishers:        Timer.publish (a Timer.publish)
            receivers:         onReceive, sink, values
            time-driven views: TimelineView (a TimelineView)
            sequences:         AsyncTimerSequence (an AsyncTimerSequence)
            random picks:      randomElement
            observable state:  Observable, ObservableObject, Published, State
            """), rotating.output)
        XCTAssertTrue(rotating.output.contains("chosen among two or more\nfixed messages by the passage of time"), rotating.output)
        let unknown = CLIRun(["rules", "explain", "nope"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.errors.contains("nope: no such rule"), unknown.errors)
    }

    /// rules/README.md's "your own migration" file passes its own examples, as a reader would run it.
    func testTheRulesReadmesOwnMigrationPassesItsExamples() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("rules/README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "## Your own migration in ten minutes").dropFirst().first)
        let yaml = try XCTUnwrap(section.components(separatedBy: "```yaml\n").dropFirst().first?.components(separatedBy: "```").first)
        let tree = try TemporaryTree(["design-system.yml": yaml, "App/Card.swift": "struct Screen: View {\n    var body: some View {\n        Card()\n            .cardShadow(4)\n        HStack { OldBadge(count: unread) }\n    }\n}\n"])
        let test = CLIRun(["rules", "test", "design-system.yml"], in: tree.path)
        XCTAssertEqual(test.status, 0, test.output + test.errors)
        XCTAssertEqual(test.output, "design-system.yml: 9 checks of 2 rules: all pass\n")
        let scan = CLIRun(["scan", "--no-config", "--rules", "design-system.yml", "--format", "xcode", "App"], in: tree.path)
        XCTAssertEqual(scan.status, 1)
        XCTAssertEqual(scan.output.split(separator: "\n").map { $0.split(separator: "[").last.map(String.init) ?? "" }, ["card-shadow]", "old-badge]"])
    }
}
