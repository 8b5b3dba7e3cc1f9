import AuditModel
import AuditReport
import XCTest

final class GitHubReportTests: XCTestCase {
    private typealias F = ReportContextFixtures

    func testOneAnnotationPerNewFindingOnly() {
        let output = ReportFormat.github.render(F.baselineContext())
        XCTAssertEqual(output, """
        ::error file=App/Legacy/Old.swift,line=3,col=5,endLine=5,endColumn=6,title=loadaudit themed-spinner::ThemedSpinner has no automatic replacement <"&'>
        ::warning file=App/My Views/Loading.swift,line=12,col=9,endLine=14,endColumn=24,title=loadaudit raw-progress-view::A raw ProgressView spinner; use LoadingSpinner.%0AReplace with: LoadingSpinner(size: .small) (safe fix)
        ::notice file=App/My Views/Loading.swift,line=20,col=13,endLine=20,endColumn=27,title=loadaudit raw-progress-view::Progress 50%25, step 1: loading%0Athen done%0AReplace with: LoadingSpinner(label: "a|b") (unsafe fix)

        """)
    }

    func testExistingFindingsAreNotAnnotated() {
        let output = ReportFormat.github.render(F.baselineContext())
        XCTAssertFalse(output.contains("line=9,"), output)
        XCTAssertEqual(ReportFormat.github.render(F.context([F.existingFinding], comparesToBaseline: true)), "")
    }

    func testWithoutABaselineEveryFindingIsAnnotated() {
        let lines = ReportFormat.github.render(F.plainContext()).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 5, "four lines and the empty string after the final newline")
        XCTAssertEqual(lines[1], "::warning file=App/Legacy/Old.swift,line=9,col=1,endLine=9,endColumn=16,title=loadaudit themed-spinner::ThemedSpinner is removed; use LoadingSpinner.%0AReplace with: LoadingSpinner() (safe fix)")
        XCTAssertEqual(lines[4], "")
    }

    func testStaleEntriesAreNotAnnotated() {
        XCTAssertEqual(ReportFormat.github.render(F.context([], comparesToBaseline: true, staleEntries: [F.staleEntry])), "")
    }

    func testDataEscapesPercentCarriageReturnAndLineFeedButNotColonOrComma() {
        let finding = F.finding(message: "100% done,\r\nfor: real")
        XCTAssertEqual(
            ReportFormat.github.render(F.context([finding])),
            "::warning file=App/My Views/Loading.swift,line=7,col=3,endLine=7,endColumn=17,title=loadaudit raw-progress-view::100%25 done,%0D%0Afor: real\n"
        )
    }

    func testPropertiesAlsoEscapeColonAndComma() {
        let finding = F.finding(file: "a,b:c%d.swift", message: "m", severity: .error)
        XCTAssertEqual(
            ReportFormat.github.render(F.context([finding])),
            "::error file=App/a%2Cb%3Ac%25d.swift,line=7,col=3,endLine=7,endColumn=17,title=loadaudit raw-progress-view::m\n"
        )
    }

    func testAnAlreadyEscapedSequenceIsEscapedAgain() {
        // "%0A" typed in a message must reach GitHub as the three characters, not as a line break.
        let finding = F.finding(message: "literal %0A here")
        XCTAssertTrue(ReportFormat.github.render(F.context([finding])).hasSuffix("::literal %250A here\n"))
    }

    func testNoFindingsNoOutput() {
        XCTAssertEqual(ReportFormat.github.render(F.context([])), "")
    }
}

final class XcodeReportTests: XCTestCase {
    private typealias F = ReportContextFixtures

    func testOneIssueLinePerNewFindingWithAbsolutePaths() {
        let context = F.baselineContext(findings: [F.manualFinding, F.existingFinding, F.multiEditFinding])
        XCTAssertEqual(ReportFormat.xcode.render(context), """
        /work/my repo/App/Legacy/Old.swift:3:5: error: ThemedSpinner has no automatic replacement <"&'> [themed-spinner]
        /work/my repo/App/My Views/Loading.swift:12:9: warning: A raw ProgressView spinner; use LoadingSpinner. Replace with: LoadingSpinner(size: .small) [raw-progress-view]

        """)
    }

    func testNoteSeverityAndPunctuationPassThrough() {
        let finding = F.finding(message: "50%, step: one", severity: .note, replacement: "LoadingSpinner(label: \"a|b\")", fix: .unsafe)
        XCTAssertEqual(
            ReportFormat.xcode.render(F.context([finding])),
            "/work/my repo/App/My Views/Loading.swift:7:3: note: 50%, step: one Replace with: LoadingSpinner(label: \"a|b\") [raw-progress-view]\n"
        )
    }

    func testExistingFindingsAreNotReported() {
        XCTAssertEqual(ReportFormat.xcode.render(F.context([F.existingFinding], comparesToBaseline: true)), "")
        XCTAssertTrue(ReportFormat.xcode.render(F.plainContext()).contains("/work/my repo/App/Legacy/Old.swift:9:1: warning: "))
    }

    func testTheAbsolutePathComesFromTheScanNotTheCurrentFolder() {
        // The scanned file lives elsewhere than under the current folder: its recorded absolute path wins.
        let finding = F.finding(file: "Elsewhere.swift", message: "m")
        let context = ReportContext(
            result: F.result(findings: [finding], staleEntries: [], absolutePaths: ["Elsewhere.swift": "/other/place/Elsewhere.swift"]),
            rules: F.rules, toolVersion: "1.2.3", currentDirectory: F.currentDirectory
        )
        XCTAssertEqual(ReportFormat.xcode.render(context), "/other/place/Elsewhere.swift:7:3: warning: m [raw-progress-view]\n")
    }

    func testWithoutARecordedPathTheFileIsResolvedAgainstTheCurrentFolder() {
        let finding = F.finding(file: "Loose.swift", message: "m")
        let context = ReportContext(
            result: F.result(findings: [finding], staleEntries: [], absolutePaths: [:]),
            rules: F.rules, toolVersion: "1.2.3", currentDirectory: F.currentDirectory
        )
        XCTAssertEqual(ReportFormat.xcode.render(context), "/work/my repo/Loose.swift:7:3: warning: m [raw-progress-view]\n")
    }
}
