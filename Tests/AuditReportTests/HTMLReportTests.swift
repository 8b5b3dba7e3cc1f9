import AuditModel
import AuditProgress
import AuditReport
import XCTest

/// The HTML report and the progress page: text from code and messages cannot become markup, findings
/// are grouped by folder, and the page's parts appear only with their data.
final class HTMLReportTests: XCTestCase {
    private typealias F = ReportContextFixtures

    func testTextFromCodeAndMessagesIsEscapedAndTheSpanMarked() {
        var finding = F.manualFinding
        finding.shownLine = ShownLine(line: "    ThemedSpinner<Never>(title: \"<b>\")", startColumn: 5, endColumn: 18)
        let html = ReportFormat.html.render(F.baselineContext(findings: [finding]))
        XCTAssertTrue(html.contains("ThemedSpinner has no automatic replacement &lt;&quot;&amp;&apos;&gt;"), html)
        XCTAssertTrue(html.contains("<mark>ThemedSpinner</mark>&lt;Never&gt;(title: &quot;&lt;b&gt;&quot;)"), html)
        XCTAssertFalse(html.contains("<b>"))
        XCTAssertTrue(html.contains("<span class=\"state\">new</span>"), "a baseline splits new from existing")
    }

    func testFindingsAreGroupedByFolderWithATableOfFolders() {
        let html = ReportFormat.html.render(F.plainContext())
        // Paths are relative to the current folder: App/Legacy and "App/My Views".
        let legacy = html.range(of: "<section class=\"folder\" id=\"folder-1\">\n<h3>App/Legacy/ <span class=\"count\">(2 findings)</span></h3>")
        let views = html.range(of: "<section class=\"folder\" id=\"folder-2\">\n<h3>App/My Views/ <span class=\"count\">(2 findings)</span></h3>")
        XCTAssertNotNil(legacy, html)
        XCTAssertNotNil(views, html)
        XCTAssertTrue(html.contains("<tr><td><a href=\"#folder-2\">App/My Views/</a></td><td class=\"num\">2</td><td class=\"num\">1</td></tr>"), html)
        XCTAssertTrue(html.contains("Replace with <code>LoadingSpinner(label: &quot;a|b&quot;)</code> (fix: unsafe)"))
    }

    private func sample(_ date: String, findings: Int, adopted: Int) -> ProgressHistory.Sample {
        ProgressHistory.Sample(commit: String(repeating: date.last!, count: 40), date: date, files: 3,
                               findingsByRule: ["raw-progress-view": findings], findingsByFolder: ["App": findings],
                               adoption: ["LoadingSpinner": adopted], incomplete: [])
    }

    func testTheProgressPageDrawsTheProjectionOnlyWhenTheCountFalls() {
        let context = F.plainContext(findings: [])
        let falling = ProgressHistory(path: ".", every: "weekly", rules: ["raw-progress-view"], newComponents: ["LoadingSpinner"], samples: [
            sample("2026-01-05", findings: 30, adopted: 0), sample("2026-01-12", findings: 20, adopted: 10), sample("2026-01-19", findings: 10, adopted: 20),
        ])
        let page = ProgressPage.render(falling, current: context)
        XCTAssertTrue(page.contains("<title>projection: none left by 2026-01-26</title>"), page)
        XCTAssertTrue(page.contains("<span class=\"figure-value\" id=\"findings-now\">10</span>"))
        XCTAssertTrue(page.contains("aria-label=\"from 30 to 10, at most 30\""), "the folder's sparkline has a text alternative")

        let flat = ProgressHistory(path: ".", every: "weekly", rules: ["raw-progress-view"], newComponents: ["LoadingSpinner"], samples: [
            sample("2026-01-05", findings: 10, adopted: 0), sample("2026-01-12", findings: 10, adopted: 0), sample("2026-01-19", findings: 12, adopted: 0),
        ])
        let flatPage = ProgressPage.render(flat, current: context)
        XCTAssertFalse(flatPage.contains("projection: none left"))
        XCTAssertTrue(flatPage.contains(">no progress</span>"), flatPage)
    }

    func testTheLegendCountsTheOtherRulesInEnglish() {
        let context = F.plainContext(findings: [])
        // Eight rules with findings: seven colours, then one rule left for the "other" layer.
        let rules = (1...8).map { "rule-\($0)" }
        func sample(_ date: String) -> ProgressHistory.Sample {
            ProgressHistory.Sample(commit: String(repeating: date.last!, count: 40), date: date, files: 3,
                                   findingsByRule: Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1, 10 - $0) }),
                                   findingsByFolder: ["App": 52], adoption: [:], incomplete: [])
        }
        let history = ProgressHistory(path: ".", every: "weekly", rules: rules, newComponents: [], samples: [sample("2026-01-05"), sample("2026-01-12")])
        let page = ProgressPage.render(history, current: context)
        XCTAssertTrue(page.contains("</span>1 other rule (3)</li>"), page)
        XCTAssertFalse(page.contains("1 other rules"))
    }
}
