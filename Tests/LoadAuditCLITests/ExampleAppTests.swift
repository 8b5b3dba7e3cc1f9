import Foundation
import LoadAuditCLI
import LoadAuditTestSupport
import XCTest

/// The bundled example app against two independent expectations: the hand-written list of findings
/// (fixtures/expected-findings.tsv, made without running loadaudit) and the golden JSON report.
final class ExampleAppTests: XCTestCase {
    func testFindingsMatchTheHandWrittenExpectations() throws {
        // Run in the app's folder, as its team would: paths are then relative to it, as in the table.
        let run = CLIRun(["scan", "--format", "json", "."], in: Repository.exampleApp.path)
        XCTAssertEqual(run.status, 1, run.errors)
        let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as! [String: Any]
        let table = try expectedRows("expected-findings.tsv")
        // The oracle covers the migration table's rules; the label and UIKit rules have tests of their own.
        let oracleRules = Set(table.map { String($0.split(separator: "\t")[3]) })
        let findings = (report["findings"] as! [[String: Any]]).filter { oracleRules.contains($0["ruleId"] as! String) }
        let actual = findings.map { finding in
            [finding["file"], finding["line"], finding["column"], finding["ruleId"], finding["fix"], finding["replacement"]]
                .map { value -> String in
                    if let value = value as? String { return value }
                    if let value = value as? Int { return String(value) }
                    return ""
                }
                .joined(separator: "\t")
        }
        let expected = table.map { line -> String in
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            while fields.count < 6 { fields.append("") }
            return fields.joined(separator: "\t")
        }
        XCTAssertEqual(actual.count, expected.count)
        for (index, pair) in zip(actual, expected).enumerated() where pair.0 != pair.1 {
            XCTFail("finding \(index + 1):\n  actual:   \(pair.0)\n  expected: \(pair.1)")
        }
    }

    func testJSONReportMatchesTheGoldenFile() throws {
        let run = CLIRun(["scan", "--format", "json", "fixtures/ExampleApp"])
        let goldenFile = Repository.root.appendingPathComponent("fixtures/expected-report.json")
        // The tool version may change without the findings changing; so may the repository's name, HEAD's commit and day and the rules' hash (placeholders).
        let normalised = ReportIdentityText.normalised(run.output).replacingOccurrences(of: "\"version\" : \"\(loadauditVersion)\"", with: "\"version\" : \"VERSION\"")
        if ProcessInfo.processInfo.environment["LOADAUDIT_UPDATE_GOLDEN"] == "1" {
            try normalised.write(to: goldenFile, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: goldenFile, encoding: .utf8)
        XCTAssertEqual(normalised, golden, "re-run with LOADAUDIT_UPDATE_GOLDEN=1 after reviewing the change")
    }

    func testEveryRuleHasFindingsInTheExampleApp() throws {
        let run = CLIRun(["scan", "--format", "json", "fixtures/ExampleApp"])
        let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as! [String: Any]
        let summary = report["summary"] as! [String: Any]
        let byRule = summary["byRule"] as! [String: Int]
        XCTAssertTrue(Set(byRule.keys).isSuperset(of: [
            "themed-spinner", "themed-spinner-compact", "loading-dots", "placeholder-card", "planning-progress-view",
            "loading-overlay", "loading-trips-view", "loading-text-generator", "raw-progress-view",
            "uikit-activity-indicator", "loading-label-style",
        ]))
        XCTAssertTrue(byRule.filter { $0.key != "uikit-activity-indicator" }.values.allSatisfy { $0 >= 2 }, "\(byRule)")
        XCTAssertEqual(summary["filesScanned"] as? Int, 22)
        XCTAssertEqual(summary["parseErrors"] as? Int, 1)
        XCTAssertTrue(run.errors.contains("Features/Broken/HalfEditedView.swift:79:28: syntax error"), run.errors)
    }
}
