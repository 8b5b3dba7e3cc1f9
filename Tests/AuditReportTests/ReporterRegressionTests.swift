import AuditModel
import AuditReport
import Foundation
import XCTest

/// Reporter bugs found while writing the report tests, fixed since, each pinned by the behaviour it
/// should have so it stays fixed.
final class ReporterRegressionTests: XCTestCase {
    private typealias F = ReportContextFixtures

    /// CIReports.swift, XcodeReport: a message with a newline splits the issue over two lines; Xcode
    /// reads only the first as an issue (and the rule id lands on a line of its own).
    func testXcodeIssueStaysOnOneLineWhenTheMessageHasANewline() {
        let output = ReportFormat.xcode.render(F.context([F.specialCharactersFinding]))
        XCTAssertEqual(output.filter { $0 == "\n" }.count, 1, output)
        XCTAssertTrue(output.hasSuffix(" [raw-progress-view]\n"))
        XCTAssertTrue(output.hasPrefix("/work/my repo/App/My Views/Loading.swift:20:13: note: Progress 50%, step 1: loading"))
    }

    /// CIReports.swift, MarkdownReport: with no findings left, the early return skips the stale line,
    /// so the one situation where the whole baseline can be dropped does not say how.
    func testMarkdownMentionsStaleEntriesEvenWhenNothingIsLeft() {
        let output = ReportFormat.markdown.render(F.baselineContext(findings: [], staleEntries: [F.staleEntry, F.staleEntry]))
        XCTAssertTrue(output.contains("2 baseline entries were fixed since the baseline: ratchet it down with `\(F.ratchetCommand)`."), output)
    }

    /// CIReports.swift, MarkdownReport: "1 baseline entries were fixed".
    func testMarkdownStaleLineIsSingularForOneEntry() {
        let output = ReportFormat.markdown.render(F.baselineContext())
        XCTAssertTrue(output.contains("\n1 baseline entry was fixed since the baseline: ratchet it down with `"), output)
    }

    /// CIReports.swift, JUnitReport.escape: U+FFFE and U+FFFF are not XML 1.0 characters either, but
    /// only scalars below U+0020 are dropped, so the report is not well-formed.
    func testJUnitDropsNonCharactersToo() {
        let finding = F.finding(message: "a\u{FFFF}b\u{FFFE}c")
        let document = ParsedXML(ReportFormat.junit.render(F.context([finding])))
        XCTAssertNil(document.error)
        XCTAssertEqual(document.named("failure").first?.attributes["message"], "abc")
    }
}
