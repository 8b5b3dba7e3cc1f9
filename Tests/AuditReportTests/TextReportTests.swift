import AuditModel
import AuditReport
import XCTest

final class TextReportBlockTests: XCTestCase {
    private let esc = "\u{1B}"

    /// A report over one finding whose file has `line` at the finding's start line.
    private func render(_ finding: Finding, line: String?, colour: Bool = false) -> String {
        let result = Fixtures.result(findings: [finding], problems: [], filesScanned: 1, filesWithParseErrors: 0)
        return TextReport(colour: colour).render(result.showing { file, number in
            file == finding.file && number == finding.start.line ? line : nil
        })
    }

    private func finding(
        line: Int = 12, column: Int, endLine: Int? = nil, endColumn: Int,
        severity: Severity = .warning, replacement: String? = "LoadingIndicator()", fix: FixClass = .safe
    ) -> Finding {
        Finding(
            ruleId: "progress-view", severity: severity, file: "Sources/App/Views/Loading.swift",
            start: SourcePoint(line: line, column: column, byteOffset: 0),
            end: SourcePoint(line: endLine ?? line, column: endColumn, byteOffset: 0),
            symbol: "ProgressView", message: "ProgressView is deprecated", replacement: replacement, fix: fix
        )
    }

    /// The lines of the block, without the summary that follows the blank separator line.
    private func blockLines(_ output: String) -> [String] {
        Array(output.components(separatedBy: "\n\n")[0].components(separatedBy: "\n"))
    }

    /// A line of megabytes (minified or generated code) is shown as a window around the span, not
    /// whole for each finding on it; the caret still points at the span.
    func testAVeryLongLineIsShownAsAWindowAroundTheSpan() {
        let filler = String(repeating: "let x = 1; ", count: 300_000)
        let line = filler + "let b = ProgressView(); " + filler
        let column = filler.count + 9
        let lines = blockLines(render(finding(column: column, endColumn: column + 14), line: line))
        XCTAssertEqual(lines.count, 4)
        XCTAssertLessThanOrEqual(lines[1].count, 220, lines[1])
        XCTAssertTrue(lines[1].hasPrefix(" 12 | …"), lines[1])
        XCTAssertTrue(lines[1].hasSuffix("…"), lines[1])
        let caret = lines[2].firstIndex(of: "^").map { lines[2].distance(from: lines[2].startIndex, to: $0) }
        let span = lines[1].range(of: "ProgressView()").map { lines[1].distance(from: lines[1].startIndex, to: $0.lowerBound) }
        XCTAssertEqual(caret, span)
        XCTAssertTrue(lines[2].hasSuffix(" ^~~~~~~~~~~~~~"), lines[2])
        // At a line's start, no "…" before; a line of 200 characters is shown whole.
        let start = blockLines(render(finding(column: 1, endColumn: 15), line: "ProgressView()" + filler))
        XCTAssertTrue(start[1].hasPrefix(" 12 | ProgressView()let x"), start[1])
        XCTAssertEqual(start[2], "    | ^~~~~~~~~~~~~~")
        let whole = String(repeating: "a", count: 186) + "ProgressView()"
        XCTAssertEqual(blockLines(render(finding(column: 187, endColumn: 201), line: whole))[1], " 12 | " + whole)
    }

    func testSafeFindingBlock() {
        let output = render(finding(column: 9, endColumn: 23), line: "        ProgressView()")
        XCTAssertEqual(blockLines(output), [
            "Sources/App/Views/Loading.swift:12:9: warning: ProgressView is deprecated [progress-view]",
            " 12 |         ProgressView()",
            "    |         ^~~~~~~~~~~~~~",
            "    = safe fix: LoadingIndicator()",
        ])
    }

    func testManualFindingSaysThereIsNoAutomaticRewrite() {
        let output = render(finding(column: 1, endColumn: 13, replacement: nil, fix: .manual), line: "ProgressView()")
        XCTAssertEqual(blockLines(output).last, "    = manual: no automatic rewrite")
        XCTAssertFalse(output.contains("fix:"))
    }

    func testUnsafeFixNamesItsClass() {
        let output = render(finding(column: 1, endColumn: 15, replacement: "Spinner()", fix: .unsafe), line: "ProgressView()")
        XCTAssertEqual(blockLines(output).last, "    = unsafe fix: Spinner()")
    }

    func testSeverityWordFollowsTheFinding() {
        XCTAssertTrue(render(finding(column: 1, endColumn: 2, severity: .error), line: nil).hasPrefix("Sources/App/Views/Loading.swift:12:1: error: "))
        XCTAssertTrue(render(finding(column: 1, endColumn: 2, severity: .note), line: nil).hasPrefix("Sources/App/Views/Loading.swift:12:1: note: "))
    }

    func testGutterWidthFollowsTheLineNumber() {
        let output = render(finding(line: 1_234, column: 1, endColumn: 3), line: "PV")
        XCTAssertEqual(Array(blockLines(output)[1...2]), [" 1234 | PV", "      | ^~"])
    }

    func testCaretPaddingKeepsLeadingTabs() {
        let output = render(finding(column: 3, endColumn: 17), line: "\t\tProgressView()")
        XCTAssertEqual(blockLines(output)[1], " 12 | \t\tProgressView()")
        XCTAssertEqual(blockLines(output)[2], "    | \t\t^~~~~~~~~~~~~~")
    }

    func testTabsAfterTheIndentAlsoStayTabs() {
        let output = render(finding(column: 5, endColumn: 7), line: "\tx\t=PV")
        XCTAssertEqual(blockLines(output)[2], "    | \t \t ^~")
    }

    func testCaretCountsCodePointsAfterNonASCIICharacters() {
        // "Café" is one code point per letter; the stadium emoji is two (U+1F3DF U+FE0F): 27 precede the call.
        let line = "let s = \"Caf\u{E9} \u{1F3DF}\u{FE0F}\"; let v = ProgressView()"
        let output = render(finding(line: 1, column: 28, endColumn: 42), line: line)
        XCTAssertEqual(blockLines(output)[2], "   | " + String(repeating: " ", count: 27) + "^~~~~~~~~~~~~~")
    }

    func testMultiLineSpanUnderlinesToTheEndOfTheStartLine() {
        let output = render(finding(line: 4, column: 9, endLine: 6, endColumn: 10), line: "        ProgressView(")
        XCTAssertEqual(Array(blockLines(output)[1...2]), [
            " 4 |         ProgressView(",
            "   |         ^~~~~~~~~~~~~",
        ])
    }

    func testEmptySpanStillShowsOneCaret() {
        let output = render(finding(column: 5, endColumn: 5), line: "let x")
        XCTAssertEqual(blockLines(output)[2], "    |     ^")
    }

    func testCaretAfterTheEndOfAShortLineSitsJustPastIt() {
        let output = render(finding(column: 40, endColumn: 50), line: "abc")
        XCTAssertEqual(blockLines(output)[2], "    |    ^")
    }

    /// An unreadable source line costs the excerpt, never the replacement.
    func testWithoutTheSourceLineTheHeaderAndTheFixAreShown() {
        let output = render(finding(column: 9, endColumn: 23), line: nil)
        XCTAssertEqual(blockLines(output), ["Sources/App/Views/Loading.swift:12:9: warning: ProgressView is deprecated [progress-view]",
                                            "   = safe fix: LoadingIndicator()"])
    }

    func testColourPaintsLocationSeverityRuleAndMarker() {
        let output = render(finding(column: 1, endColumn: 3), line: "PV", colour: true)
        XCTAssertTrue(output.contains("\(esc)[1mSources/App/Views/Loading.swift:12:1:\(esc)[0m"), output.debugDescription)
        XCTAssertTrue(output.contains("\(esc)[33mwarning:\(esc)[0m"), output.debugDescription)
        XCTAssertTrue(output.contains("\(esc)[2m[progress-view]\(esc)[0m"), output.debugDescription)
        XCTAssertTrue(output.contains("\(esc)[32m^~\(esc)[0m"), output.debugDescription)
        XCTAssertTrue(render(finding(column: 1, endColumn: 3, severity: .error), line: nil, colour: true).contains("\(esc)[31merror:"))
    }

    func testNoColourMeansNoEscapeSequences() {
        let output = TextReport(colour: false).render(Fixtures.result().showing { _, _ in "        ProgressView()" })
        XCTAssertFalse(output.contains(esc), output.debugDescription)
    }
}

final class TextReportSummaryTests: XCTestCase {
    private func render(_ result: ScanResult) -> String {
        TextReport(colour: false).render(result)
    }

    func testFullReportOfSeveralFindings() {
        let shown: [String: [Int: String]] = [
            Fixtures.loadingFile: [12: "        ProgressView()"],
            Fixtures.legacyFile: [3: "    let spinner = UIActivityIndicatorView(", 9: "ProgressView()"],
        ]
        XCTAssertEqual(TextReport(colour: false).render(Fixtures.result().showing { file, line in shown[file]?[line] }), """
            Sources/App/Views/Loading.swift:12:9: warning: ProgressView is deprecated; use LoadingIndicator [progress-view]
             12 |         ProgressView()
                |         ^~~~~~~~~~~~~~
                = safe fix: LoadingIndicator()

            Sources/App/Legacy/Old.swift:3:5: error: UIActivityIndicatorView has no automatic replacement [activity-indicator]
             3 |     let spinner = UIActivityIndicatorView(
               |     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
               = manual: no automatic rewrite

            Sources/App/Legacy/Old.swift:9:1: warning: ProgressView is deprecated; use LoadingIndicator [progress-view]
             9 | ProgressView()
               | ^~~~~~~~~~~~~~
               = safe fix: LoadingIndicator()

            3 findings in 2 files (5 files scanned): 2 safe, 1 manual
              progress-view       2
              activity-indicator  1
            1 file with syntax errors: findings inside the broken regions may be missing.

            """)
    }

    func testRuleCountsFollowRuleIdsOrderAndSkipRulesWithoutFindings() {
        let output = render(Fixtures.result(ruleIds: ["activity-indicator", "never-fires", "progress-view"]))
        XCTAssertTrue(output.hasSuffix("""
            3 findings in 2 files (5 files scanned): 2 safe, 1 manual
              activity-indicator  1
              progress-view       2
            1 file with syntax errors: findings inside the broken regions may be missing.

            """), output)
    }

    func testSingularWordsForOneOfEach() {
        let result = Fixtures.result(
            findings: [Fixtures.safeFinding], problems: [], filesScanned: 1, filesWithParseErrors: 0, ruleIds: ["progress-view"]
        )
        XCTAssertTrue(render(result).hasSuffix("\n1 finding in 1 file (1 file scanned): 1 safe\n  progress-view  1\n"), render(result))
    }

    func testFixClassesAreListedSafeUnsafeManual() {
        let unsafe = Finding(
            ruleId: "progress-view", severity: .warning, file: "A.swift",
            start: SourcePoint(line: 1, column: 1, byteOffset: 0), end: SourcePoint(line: 1, column: 2, byteOffset: 1),
            symbol: "ProgressView", message: "m", replacement: "X", fix: .unsafe
        )
        let result = Fixtures.result(
            findings: [Fixtures.manualFinding, unsafe, Fixtures.safeFinding, unsafe], problems: [], filesScanned: 9,
            filesWithParseErrors: 0
        )
        XCTAssertTrue(render(result).contains("\n4 findings in 3 files (9 files scanned): 1 safe, 2 unsafe, 1 manual\n"), render(result))
    }

    func testRulesMissingFromRuleIdsAreListedAfterInFullAndAligned() {
        let result = Fixtures.result(ruleIds: ["pv"])
        XCTAssertTrue(render(result).contains("""
            3 findings in 2 files (5 files scanned): 2 safe, 1 manual
              activity-indicator  1
              progress-view       2

            """), render(result))
    }

    /// In the words of the rules files (the built-in loading rules call their findings "deprecated
    /// loading indicators"), else "findings".
    func testCleanScanSaysSoWithTheFileCount() {
        let loading = TextReport(colour: false, findingsName: "deprecated loading indicators")
        XCTAssertEqual(
            loading.render(Fixtures.result(findings: [], problems: [], filesScanned: 7, filesWithParseErrors: 0)),
            "No deprecated loading indicators in 7 files scanned.\n"
        )
        XCTAssertEqual(
            loading.render(Fixtures.result(findings: [], problems: [], filesScanned: 1, filesWithParseErrors: 0)),
            "No deprecated loading indicators in 1 file scanned.\n"
        )
        XCTAssertEqual(
            render(Fixtures.result(findings: [], problems: [], filesScanned: 1, filesWithParseErrors: 0)),
            "No findings in 1 file scanned.\n"
        )
    }

    func testSyntaxErrorNoteAppearsOnlyWhenFilesFailedToParse() {
        XCTAssertEqual(
            render(Fixtures.result(findings: [], problems: [], filesScanned: 4, filesWithParseErrors: 2)),
            "No findings in 4 files scanned.\n"
                + "2 files with syntax errors: findings inside the broken regions may be missing.\n"
        )
        XCTAssertFalse(render(Fixtures.result(filesWithParseErrors: 0)).contains("syntax errors"))
    }

    func testColourChangesOnlyDecorationNotWords() {
        let result = Fixtures.result()
        let plain = TextReport(colour: false).render(result.showing { _, _ in "ProgressView()" })
        let coloured = TextReport(colour: true).render(result.showing { _, _ in "ProgressView()" })
        XCTAssertTrue(coloured.contains("\u{1B}["))
        let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        XCTAssertEqual(stripped, plain)
    }
}
