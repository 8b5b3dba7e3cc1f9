import Foundation
import LoadAuditCLI
import XCTest

/// The size of a raw ProgressView's replacement from where it sits, as the spec's size table says
/// (`.small` "inline with text, buttons", `.medium` "default, standalone", `.large` "prominent"),
/// all of it data in rules/loading-migration.yml: fixtures/SpinnerContexts against a hand-written
/// table (fixtures/expected-spinner-contexts.tsv) and the fix's golden diff.
final class SpinnerContextTests: XCTestCase {
    let fixture = Repository.root.appendingPathComponent("fixtures/SpinnerContexts")

    func testEachPlaceGivesTheSizeTheTableSays() throws {
        let run = CLIRun(["scan", "--no-config", "--rule", "raw-progress-view", "--format", "json", "."], in: fixture.path)
        XCTAssertEqual(run.status, 1, run.errors)
        let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as! [String: Any]
        let message = "A raw ProgressView spinner; use the theme-aware LoadingSpinner."
        let actual = (report["findings"] as! [[String: Any]]).map { finding -> String in
            let full = finding["message"] as! String
            XCTAssertTrue(full.hasPrefix(message), full)
            let why = full.dropFirst(message.count).trimmingCharacters(in: .whitespaces)
            let reason = why.isEmpty ? "" : String(why.dropFirst("(.small: ".count).dropLast())
            return ["\(finding["file"]!)", "\(finding["line"]!)", "\(finding["column"]!)", "\(finding["fix"]!)", "\(finding["replacement"] ?? "")", reason]
                .joined(separator: "\t")
        }
        XCTAssertEqual(actual, try expectedRows("expected-spinner-contexts.tsv"))
    }

    func testTheFixWritesTheGoldenDiff() throws {
        let run = CLIRun(["fix", "--dry-run", "--no-config", "--rule", "raw-progress-view", "."], in: fixture.path)
        XCTAssertEqual(run.status, 1, run.errors)
        let goldenFile = Repository.root.appendingPathComponent("fixtures/expected-spinner-contexts.diff")
        if ProcessInfo.processInfo.environment["LOADAUDIT_UPDATE_GOLDEN"] == "1" {
            try run.output.write(to: goldenFile, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(run.output, try String(contentsOf: goldenFile, encoding: .utf8))
        XCTAssertTrue(run.errors.contains("Would fix 4 files: 10 edits (raw-progress-view 10)"), run.errors)
    }

    /// `rules explain` shows where the size comes from, in order, with each place's examples.
    func testExplainShowsTheSizesByPlaceAndTheirExamples() {
        let run = CLIRun(["rules", "explain", "raw-progress-view"])
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertTrue(run.output.contains("""
            size:     .controlSize(...) on the call: the size its control size maps to
                      .scaleEffect(k) on the call: the size nearest to 20 pt × k
                      small (in a button's label, inline) where inside Button or Menu (any ancestor)
                      small (drawn over a button, inline) where inside Button($$$A).overlay { $$$B }, Button($$$A).overlay($$$D) { $$$B }, \
            Button($$$A) { $$$C }.overlay { $$$B }, Button($$$A) { $$$C }.overlay($$$D) { $$$B }, Button { $$$C } label: { $$$L }.overlay { $$$B } \
            or Button { $$$C } label: { $$$L }.overlay($$$D) { $$$B } (any ancestor)
                      small (in a toolbar, inline) where inside ToolbarItem, ToolbarItemGroup or toolbar (any ancestor)
                      small (inline with text) where inside HStack or Label that has Text, TextField, SecureField or Label that is not inside value_arguments
                      else medium

            """), run.output)
        XCTAssertTrue(run.output.contains("""
              size small, in a button's label, inline (context 1, 1):
                | Button { signIn() } label: { HStack { ↓ProgressView(); Text("Sign in") } }
            """), run.output)
        // The rule's own examples, dozens (the migration table's tests): the first three of each kind,
        // a fix with its class when it gives one, and the rest counted.
        XCTAssertTrue(run.output.contains("  finds (3):\n") && !run.output.contains("  finds (4):"), run.output)
        XCTAssertTrue(run.output.contains("  before (2, safe):\n    | ProgressView()\n  after:\n    | LoadingSpinner(size: .medium)\n"), run.output)
        XCTAssertNotNil(run.output.firstMatch(of: #/\n\d+ more of "finds", \d+ more of "leaves alone", \d+ more of "before and after" in rules/loading-migration.yml:\d+: `loadaudit rules test` runs them all\n/#), run.output)
    }

    /// A size context's examples are tests: `match` marks the findings whose size it decides, and a
    /// wrong one fails `rules test` with the context named.
    func testAWrongContextExampleFailsRulesTest() throws {
        let tree = try TemporaryTree(["team.yml": """
        version: 1
        sizes:
          points: {small: 16, medium: 24, large: 40}
        rules:
          - id: team-spinner
            component: TeamSpinner
            message: Use LoadingSpinner.
            replacement: "LoadingSpinner(size: .{size})"
            fix: safe
            size:
              default: medium
              context:
                - size: small
                  why: in a button
                  inside: {pattern: Button, stop-by: end}
                  examples:
                    match:
                      - 'Button(action: go) { ↓TeamSpinner() }'
                      - 'VStack { ↓TeamSpinner() }'
                    fix:
                      - before: 'Button(action: go) { TeamSpinner() }'
                        after: 'Button(action: go) { LoadingSpinner(size: .small) }'
        """])
        let run = CLIRun(["rules", "test", "team.yml"], in: tree.path)
        XCTAssertEqual(run.status, 1, run.output + run.errors)
        XCTAssertTrue(run.output.hasPrefix("FAIL team.yml:13: team-spinner: size context 1 (small, in a button): match 2: the size context does not decide the sizes where the markers are\n"), run.output)
        XCTAssertTrue(run.output.hasSuffix("team.yml: 4 checks of 1 rules: 1 failed\n"), run.output)
    }
}
