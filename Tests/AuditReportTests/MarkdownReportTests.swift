import AuditModel
import AuditReport
import XCTest

final class MarkdownReportTests: XCTestCase {
    private typealias F = ReportContextFixtures

    func testFullReportAgainstABaseline() {
        let context = F.baselineContext(staleEntries: [
            F.staleEntry, StaleEntry(ruleId: "themed-spinner", file: "Legacy/Gone.swift", fingerprint: "f4-1", snippet: "ThemedSpinner()"),
        ])
        XCTAssertEqual(ReportFormat.markdown.render(context), """
        ## loadaudit: 4 findings, 3 new

        | Rule | Findings | New | Existing | Safe | Unsafe | Manual |
        |---|---:|---:|---:|---:|---:|---:|
        | `raw-progress-view` | 2 | 2 | 0 | 1 | 1 | 0 |
        | `themed-spinner` | 2 | 1 | 1 | 1 | 0 | 1 |

        2 baseline entries were fixed since the baseline: ratchet it down with `loadaudit baseline --output .loadaudit-baseline.json App`.

        ### `raw-progress-view`

        A raw ProgressView spinner; use the theme-aware LoadingSpinner.

        | | Location | Fix | Replacement |
        |---|---|---|---|
        | **new** | `My Views/Loading.swift:12` | safe | `LoadingSpinner(size: .small)` |
        | **new** | `My Views/Loading.swift:20` | unsafe | `LoadingSpinner(label: "a\\|b")` |

        ### `themed-spinner`

        ThemedSpinner is removed; use LoadingSpinner.

        | | Location | Fix | Replacement |
        |---|---|---|---|
        | **new** | `Legacy/Old.swift:3` | manual | by hand |
        | existing | `Legacy/Old.swift:9` | safe | `LoadingSpinner()` |

        """)
    }

    func testHeaderCountsNewFindingsOnlyAgainstABaseline() {
        XCTAssertTrue(ReportFormat.markdown.render(F.baselineContext()).hasPrefix("## loadaudit: 4 findings, 3 new\n\n| Rule |"))
        XCTAssertTrue(ReportFormat.markdown.render(F.plainContext()).hasPrefix("## loadaudit: 4 findings\n\n| Rule |"))
        XCTAssertTrue(ReportFormat.markdown.render(F.context([F.multiEditFinding])).hasPrefix("## loadaudit: 1 finding\n\n"))
        XCTAssertTrue(ReportFormat.markdown.render(F.context([F.existingFinding], comparesToBaseline: true))
            .hasPrefix("## loadaudit: 1 finding, 0 new\n\n"))
    }

    func testRuleTableWithoutABaselineCountsEveryFindingAsNew() {
        let output = ReportFormat.markdown.render(F.plainContext())
        XCTAssertTrue(output.contains("""
        | `raw-progress-view` | 2 | 2 | 0 | 1 | 1 | 0 |
        | `themed-spinner` | 2 | 2 | 0 | 1 | 0 | 1 |

        ### `raw-progress-view`
        """), output)
        XCTAssertFalse(output.contains("existing |"))
        XCTAssertFalse(output.contains("ratchet"))
    }

    func testOneSectionPerRuleWithFindingsInRuleIdsOrder() {
        let output = ReportFormat.markdown.render(F.baselineContext())
        let headings = output.split(separator: "\n").filter { $0.hasPrefix("### ") }
        XCTAssertEqual(headings, ["### `raw-progress-view`", "### `themed-spinner`"])
    }

    func testRulesOutsideRuleIdsComeLastSortedWithoutADescription() {
        let custom = Finding(
            ruleId: "a-custom-rule", severity: .warning, file: "Z.swift",
            start: SourcePoint(line: 1, column: 1, byteOffset: 0), end: SourcePoint(line: 1, column: 2, byteOffset: 1),
            symbol: "Z", message: "z", replacement: "Y()", fix: .unsafe
        )
        let output = ReportFormat.markdown.render(F.context([custom, F.multiEditFinding]))
        XCTAssertTrue(output.contains("""
        | `raw-progress-view` | 1 | 1 | 0 | 1 | 0 | 0 |
        | `a-custom-rule` | 1 | 1 | 0 | 0 | 1 | 0 |
        """), output)
        XCTAssertTrue(output.hasSuffix("""
        ### `a-custom-rule`

        | | Location | Fix | Replacement |
        |---|---|---|---|
        | **new** | `Z.swift:1` | unsafe | `Y()` |

        """), output)
    }

    func testPipesAndNewlinesInCellsCannotBreakTheTable() {
        let finding = F.finding(file: "a|b.swift", message: "m", replacement: "X(\"1|2\"\n)", fix: .unsafe)
        let output = ReportFormat.markdown.render(F.context([finding]))
        XCTAssertTrue(output.contains("| **new** | `a\\|b.swift:7` | unsafe | `X(\"1\\|2\" )` |\n"), output)
        // Every table row has exactly the columns of its header, once escaped pipes are left aside.
        for line in output.split(separator: "\n") where line.hasPrefix("|") {
            let cells = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count
            XCTAssertTrue(cells == 5 || cells == 8, "\(line)")
        }
    }

    func testStaleLineWithoutARatchetCommand() {
        let context = F.baselineContext(staleEntries: [F.staleEntry, F.staleEntry], ratchetCommand: nil)
        XCTAssertTrue(ReportFormat.markdown.render(context).contains("\n\n2 baseline entries were fixed since the baseline.\n\n### "))
    }

    func testNoStaleLineWithoutStaleEntries() {
        XCTAssertFalse(ReportFormat.markdown.render(F.baselineContext(staleEntries: [])).contains("fixed since the baseline"))
    }

    /// In the words of the rules files, else "findings".
    func testCleanScan() {
        var context = F.context([])
        XCTAssertEqual(ReportFormat.markdown.render(context), "## loadaudit: 0 findings\n\nNo findings in 5 files.\n")
        context.findingsName = "deprecated loading indicators"
        XCTAssertEqual(ReportFormat.markdown.render(context), "## loadaudit: 0 findings\n\nNo deprecated loading indicators in 5 files.\n")
    }
}
