import AuditModel
import AuditReport
import Foundation
import XCTest

final class JSONReportTests: XCTestCase {
    private func parsed(_ result: ScanResult = Fixtures.result()) throws -> [String: Any] {
        let json = JSONReport.render(result, toolVersion: "1.2.3")
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        return try XCTUnwrap(object as? [String: Any])
    }

    func testTopLevelShape() throws {
        let document = try parsed()
        XCTAssertEqual(Set(document.keys), ["version", "tool", "findings", "problems", "stale", "summary"])
        XCTAssertEqual(document["version"] as? Int, 1)
        let tool = try XCTUnwrap(document["tool"] as? [String: Any])
        XCTAssertEqual(Set(tool.keys), ["name", "version"])
        XCTAssertEqual(tool["name"] as? String, "loadaudit")
        XCTAssertEqual(tool["version"] as? String, "1.2.3")
    }

    func testFindingsHaveExactlyTheDocumentedKeysInScanOrder() throws {
        let findings = try XCTUnwrap(try parsed()["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.count, 3)
        let keys: Set<String> = [
            "ruleId", "severity", "file", "line", "column", "endLine", "endColumn", "symbol", "message", "replacement", "fix",
            "baseline", "fingerprint", "related",
        ]
        for finding in findings {
            XCTAssertEqual(Set(finding.keys), keys)
        }
        XCTAssertEqual(findings.map { $0["file"] as? String }, [Fixtures.loadingFile, Fixtures.legacyFile, Fixtures.legacyFile])
    }

    func testSafeFindingValues() throws {
        let finding = try XCTUnwrap((try parsed()["findings"] as? [[String: Any]])?.first)
        XCTAssertEqual(finding["ruleId"] as? String, "progress-view")
        XCTAssertEqual(finding["severity"] as? String, "warning")
        XCTAssertEqual(finding["file"] as? String, "Sources/App/Views/Loading.swift")
        XCTAssertEqual(finding["line"] as? Int, 12)
        XCTAssertEqual(finding["column"] as? Int, 9)
        XCTAssertEqual(finding["endLine"] as? Int, 12)
        XCTAssertEqual(finding["endColumn"] as? Int, 23)
        XCTAssertEqual(finding["symbol"] as? String, "ProgressView")
        XCTAssertEqual(finding["message"] as? String, "ProgressView is deprecated; use LoadingIndicator")
        XCTAssertEqual(finding["replacement"] as? String, "LoadingIndicator()")
        XCTAssertEqual(finding["fix"] as? String, "safe")
    }

    func testManualFindingHasANullReplacementRatherThanNoKey() throws {
        let finding = try XCTUnwrap((try parsed()["findings"] as? [[String: Any]])?[1])
        XCTAssertEqual(finding["ruleId"] as? String, "activity-indicator")
        XCTAssertEqual(finding["severity"] as? String, "error")
        XCTAssertEqual(finding["line"] as? Int, 3)
        XCTAssertEqual(finding["endLine"] as? Int, 5)
        XCTAssertEqual(finding["endColumn"] as? Int, 6)
        XCTAssertEqual(finding["fix"] as? String, "manual")
        XCTAssertTrue(finding["replacement"] is NSNull, "replacement was \(String(describing: finding["replacement"]))")
    }

    func testProblemsCarryFileKindPositionAndMessage() throws {
        let problems = try XCTUnwrap(try parsed()["problems"] as? [[String: Any]])
        XCTAssertEqual(problems.count, 1)
        XCTAssertEqual(problems[0]["file"] as? String, "Sources/App/Broken.swift")
        XCTAssertEqual(problems[0]["kind"] as? String, "syntax-error")
        XCTAssertEqual(problems[0]["line"] as? Int, 4)
        XCTAssertEqual(problems[0]["column"] as? Int, 2)
        XCTAssertEqual(problems[0]["message"] as? String, "syntax error near '}'")
    }

    func testSummaryCountsFilesFindingsRulesAndParseErrors() throws {
        let summary = try XCTUnwrap(try parsed()["summary"] as? [String: Any])
        XCTAssertEqual(Set(summary.keys), ["filesScanned", "findings", "byRule", "parseErrors", "new", "existing", "fixedSinceBaseline"])
        XCTAssertEqual(summary["filesScanned"] as? Int, 5)
        XCTAssertEqual(summary["findings"] as? Int, 3)
        XCTAssertEqual(summary["parseErrors"] as? Int, 1)
        // Only rules with findings are counted; "never-fires" ran but has no entry.
        XCTAssertEqual(summary["byRule"] as? [String: Int], ["progress-view": 2, "activity-indicator": 1])
    }

    func testEmptyResultHasEmptyListsAndZeroCounts() throws {
        let document = try parsed(Fixtures.result(findings: [], problems: [], filesScanned: 7, filesWithParseErrors: 0))
        XCTAssertEqual((document["findings"] as? [Any])?.count, 0)
        XCTAssertEqual((document["problems"] as? [Any])?.count, 0)
        let summary = try XCTUnwrap(document["summary"] as? [String: Any])
        XCTAssertEqual(summary["filesScanned"] as? Int, 7)
        XCTAssertEqual(summary["findings"] as? Int, 0)
        XCTAssertEqual(summary["byRule"] as? [String: Int], [:])
    }

    func testRenderingIsByteIdenticalAcrossRuns() {
        let first = JSONReport.render(Fixtures.result(), toolVersion: "1.2.3")
        let second = JSONReport.render(Fixtures.result(), toolVersion: "1.2.3")
        XCTAssertEqual(Array(first.utf8), Array(second.utf8))
    }

    func testOutputEndsWithASingleNewline() {
        let json = JSONReport.render(Fixtures.result(), toolVersion: "1.2.3")
        XCTAssertTrue(json.hasSuffix("}\n"), String(json.suffix(10)).debugDescription)
    }

    func testSlashesInPathsAreNotEscaped() {
        let json = JSONReport.render(Fixtures.result(), toolVersion: "1.2.3")
        XCTAssertTrue(json.contains("\"Sources/App/Views/Loading.swift\""))
        XCTAssertFalse(json.contains("\\/"))
    }

    func testKeysAreSortedSoDiffsStayStable() throws {
        let json = JSONReport.render(Fixtures.result(), toolVersion: "1.2.3")
        let order = ["\"findings\"", "\"problems\"", "\"summary\"", "\"tool\"", "\"version\" : 1"]
        let offsets = try order.map { key in try XCTUnwrap(json.range(of: key), key).lowerBound }
        XCTAssertEqual(offsets, offsets.sorted())
    }

    func testRenderedJSONDecodesBackToTheDocument() throws {
        let result = Fixtures.result()
        let json = JSONReport.render(result, toolVersion: "1.2.3")
        let decoded = try JSONDecoder().decode(JSONReport.Document.self, from: Data(json.utf8))
        XCTAssertEqual(decoded, JSONReport.document(result, toolVersion: "1.2.3"))
        XCTAssertNil(decoded.findings[1].replacement)
    }
}
