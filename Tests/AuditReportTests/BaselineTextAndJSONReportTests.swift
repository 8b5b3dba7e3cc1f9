import AuditModel
import AuditReport
import Foundation
import XCTest

final class BaselineTextReportTests: XCTestCase {
    private typealias F = ReportContextFixtures

    /// The source line behind the multi-edit finding; no other line is available.
    private let lines: LineProvider = { file, line in
        file == ReportContextFixtures.loadingFile && line == 12 ? "        ProgressView()" : nil
    }

    func testNewBlocksFirstThenExistingThenFixedThenCounts() {
        XCTAssertEqual(ReportFormat.text.render((F.baselineContext()).showing(lines)), """
        NEW: 3 findings not in the baseline (these fail the run)

        Legacy/Old.swift:3:5: error: ThemedSpinner has no automatic replacement <"&'> [themed-spinner]
           = manual: no automatic rewrite

        My Views/Loading.swift:12:9: warning: A raw ProgressView spinner; use LoadingSpinner. [raw-progress-view]
         12 |         ProgressView()
            |         ^~~~~~~~~~~~~~
            = safe fix: LoadingSpinner(size: .small)

        My Views/Loading.swift:20:13: note: Progress 50%, step 1: loading
        then done [raw-progress-view]
           = unsafe fix: LoadingSpinner(label: "a|b")

        Existing: 1 finding already in the baseline
          Legacy/Old.swift:9:1: themed-spinner (safe)

        Fixed since the baseline: 1 entry no longer found
          Old Dots.swift: loading-dots LoadingDots()
        Ratchet the baseline down with: loadaudit baseline --output .loadaudit-baseline.json App

        3 new findings, 1 existing, 1 fixed since the baseline (5 files scanned)

        """)
    }

    /// With --diff-base and no baseline file, the reports say what splits the findings: changed lines,
    /// not a baseline that was never read.
    func testADiffBaseWithoutABaselineSpeaksOfChangedLines() {
        let findings = [F.multiEditFinding, F.existingFinding]
        let context = ReportContext(
            result: F.result(findings: findings, staleEntries: [], filesScanned: 2), rules: F.rules, toolVersion: "1.2.3",
            currentDirectory: F.currentDirectory, diffBase: "origin/main"
        )
        XCTAssertTrue(context.comparesToBaseline)
        let text = ReportFormat.text.render(context)
        XCTAssertTrue(text.hasPrefix("NEW: 1 finding on lines changed since origin/main (these fail the run)\n"), text)
        XCTAssertTrue(text.contains("\nExisting: 1 finding on lines unchanged since origin/main\n"), text)
        XCTAssertTrue(text.hasSuffix("\n1 new finding, 1 existing (2 files scanned)\n"), text)
        XCTAssertFalse(text.contains("baseline"), text)
        let junit = ReportFormat.junit.render(context)
        XCTAssertTrue(junit.contains("<skipped message=\"on lines unchanged since origin/main\"/>"), junit)
        XCTAssertFalse(junit.contains("baseline"), junit)

        let both = ReportContext(
            result: F.result(findings: findings, staleEntries: [], filesScanned: 2), rules: F.rules, toolVersion: "1.2.3",
            currentDirectory: F.currentDirectory, comparesToBaseline: true, diffBase: "origin/main"
        )
        let bothText = ReportFormat.text.render(both)
        XCTAssertTrue(bothText.hasPrefix("NEW: 1 finding not in the baseline and on lines changed since origin/main (these fail the run)\n"), bothText)
        XCTAssertTrue(bothText.contains("\nExisting: 1 finding in the baseline or on lines unchanged since origin/main\n"), bothText)
        XCTAssertTrue(bothText.hasSuffix("\n1 new finding, 1 existing, 0 fixed since the baseline (2 files scanned)\n"), bothText)
    }

    func testPluralsAndNoRatchetCommand() {
        let context = ReportContext(
            result: F.result(findings: [F.multiEditFinding], staleEntries: [F.staleEntry, F.staleEntry], filesScanned: 1),
            rules: F.rules, toolVersion: "1.2.3", currentDirectory: F.currentDirectory, comparesToBaseline: true, ratchetCommand: nil
        )
        XCTAssertEqual(ReportFormat.text.render(context), """
        NEW: 1 finding not in the baseline (these fail the run)

        My Views/Loading.swift:12:9: warning: A raw ProgressView spinner; use LoadingSpinner. [raw-progress-view]
           = safe fix: LoadingSpinner(size: .small)

        Fixed since the baseline: 2 entries no longer found
          Old Dots.swift: loading-dots LoadingDots()
          Old Dots.swift: loading-dots LoadingDots()

        1 new finding, 0 existing, 2 fixed since the baseline (1 file scanned)

        """)
    }

    func testOnlyExistingFindings() {
        let context = F.baselineContext(findings: [F.existingFinding, F.existingFinding], staleEntries: [])
        XCTAssertEqual(ReportFormat.text.render(context), """
        Existing: 2 findings already in the baseline
          Legacy/Old.swift:9:1: themed-spinner (safe)
          Legacy/Old.swift:9:1: themed-spinner (safe)

        0 new findings, 2 existing, 0 fixed since the baseline (5 files scanned)

        """)
    }

    func testSyntaxErrorsAreMentionedAfterTheCounts() {
        let context = ReportContext(
            result: F.result(findings: [], staleEntries: [], filesScanned: 3, filesWithParseErrors: 1),
            rules: F.rules, toolVersion: "1.2.3", currentDirectory: F.currentDirectory, comparesToBaseline: true
        )
        XCTAssertEqual(ReportFormat.text.render(context), """
        0 new findings, 0 existing, 0 fixed since the baseline (3 files scanned)
        1 file with syntax errors: findings inside the broken regions may be missing.

        """)
    }

    func testColourDimsExistingFindingsAndBoldsTheNewHeading() {
        let output = ReportFormat.text.render(F.baselineContext(findings: [F.multiEditFinding, F.existingFinding], staleEntries: []), colour: true)
        XCTAssertTrue(output.hasPrefix("\u{1B}[1mNEW: 1 finding not in the baseline (these fail the run)\u{1B}[0m\n\n"), output.debugDescription)
        XCTAssertTrue(output.contains("\u{1B}[2m  Legacy/Old.swift:9:1: themed-spinner (safe)\u{1B}[0m\n"), output.debugDescription)
    }

    func testWithoutABaselineTheContextRendersLikeTheScanResult() {
        let context = F.plainContext()
        XCTAssertEqual(ReportFormat.text.render((context).showing(lines)), TextReport(colour: false).render(context.result.showing(lines)))
        XCTAssertFalse(ReportFormat.text.render(context).contains("NEW:"))
    }
}

final class JSONReportContextTests: XCTestCase {
    private typealias F = ReportContextFixtures

    private func document(_ context: ReportContext) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ReportFormat.json.render(context).utf8)) as? [String: Any])
    }

    func testBaselineStatesFingerprintsAndStaleEntries() throws {
        let json = try document(F.baselineContext())
        let findings = try XCTUnwrap(json["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.map { $0["baseline"] as? String }, ["new", "existing", "new", "new"])
        XCTAssertEqual(findings.map { $0["fingerprint"] as? String }, ["f2-1", "f2-2", "f1-1", "f1-2"])
        XCTAssertEqual(findings.map { $0["file"] as? String }, [F.legacyFile, F.legacyFile, F.loadingFile, F.loadingFile])
        XCTAssertEqual(findings[3]["message"] as? String, "Progress 50%, step 1: loading\nthen done")
        XCTAssertEqual(findings[3]["severity"] as? String, "note")
        XCTAssertTrue(findings[0]["replacement"] is NSNull)
        let stale = try XCTUnwrap(json["stale"] as? [[String: String]])
        XCTAssertEqual(stale, [["ruleId": "loading-dots", "file": "Old Dots.swift", "fingerprint": "f3-1", "snippet": "LoadingDots()"]])
        let summary = try XCTUnwrap(json["summary"] as? [String: Any])
        XCTAssertEqual(summary["new"] as? Int, 3)
        XCTAssertEqual(summary["existing"] as? Int, 1)
        XCTAssertEqual(summary["fixedSinceBaseline"] as? Int, 1)
        XCTAssertEqual(summary["byRule"] as? [String: Int], ["raw-progress-view": 2, "themed-spinner": 2])
        XCTAssertEqual((json["tool"] as? [String: String]), ["name": "loadaudit", "version": "1.2.3"])
    }

    func testWithoutABaselineEverythingIsNewAndNothingStale() throws {
        let json = try document(F.plainContext())
        XCTAssertEqual((json["findings"] as? [[String: Any]])?.map { $0["baseline"] as? String }, ["new", "new", "new", "new"])
        XCTAssertEqual((json["stale"] as? [Any])?.count, 0)
        XCTAssertEqual((json["summary"] as? [String: Any])?["existing"] as? Int, 0)
    }

    func testTheFormatRendersTheSameBytesAsTheResultRenderer() {
        let context = F.baselineContext()
        XCTAssertEqual(ReportFormat.json.render(context), JSONReport.render(context.result, toolVersion: "1.2.3"))
    }
}
