import AuditModel
import AuditRules
import XCTest

final class SuppressionTests: XCTestCase {
    func testIgnoreOnTheLineBeforeOrAtTheEndOfTheLine() throws {
        let source = RuleHarness.inView("""
        // loadaudit:ignore raw-progress-view - the design team keeps this one until 2.0
        ProgressView()
        ThemedSpinner(size: 24) // loadaudit:ignore themed-spinner
        ThemedSpinner(size: 16)
        """)
        let findings = try RuleHarness.findings(source)
        XCTAssertEqual(findings.map(\.ruleId), ["themed-spinner"])
        XCTAssertEqual(findings.first?.start.line, 10)
    }

    func testOneCommentCanNameSeveralRulesAndFileWideIgnoresCoverTheFile() throws {
        let source = RuleHarness.inView("""
        // loadaudit:ignore raw-progress-view, themed-spinner
        ProgressView(); ThemedSpinner(size: 24)
        LoadingDots()
        LoadingDots()
        // loadaudit:ignore-file loading-dots
        """)
        XCTAssertEqual(try RuleHarness.findings(source), [])
    }

    func testUnusedAndUnknownSuppressionsAreFindingsOfTheirOwn() throws {
        let source = RuleHarness.inView("""
        // loadaudit:ignore themed-spinner - stale: the spinner is gone
        Text("Done")
        // loadaudit:ignore raw-progress-veiw
        ProgressView()
        """)
        let findings = try RuleHarness.findings(source)
        XCTAssertEqual(findings.map(\.ruleId), ["unused-suppression", "unused-suppression", "raw-progress-view"])
        XCTAssertTrue(findings[0].message.contains("no themed-spinner finding on line 8"), findings[0].message)
        XCTAssertTrue(findings[1].message.contains("it names 'raw-progress-veiw', which is not a rule"), findings[1].message)
        XCTAssertEqual(findings[0].start.column, 13)
    }

    func testASuppressionForARuleThatDidNotRunIsNotCalledUnused() throws {
        let source = RuleHarness.inView("// loadaudit:ignore themed-spinner\nProgressView()")
        let onlySpinners = try RuleSet.builtIn().selecting(["raw-progress-view"])
        XCTAssertEqual(try RuleHarness.findings(source, rules: onlySpinners).map(\.ruleId), ["raw-progress-view"])
    }

    func testLookAlikeCommentsAreNotSuppressions() throws {
        let source = RuleHarness.inView("""
        // see loadaudit:ignore raw-progress-view in the README
        ProgressView()
        /* as loadaudit:ignore raw-progress-view would */
        ProgressView()
        // loadaudit:ignored raw-progress-view
        ProgressView()
        """)
        XCTAssertEqual(try RuleHarness.findings(source).map(\.ruleId), ["raw-progress-view", "raw-progress-view", "raw-progress-view"])
    }

    /// Block comments, regions, the next line, and `all`.
    func testEveryDirectiveInLineAndBlockComments() throws {
        let source = RuleHarness.inView("""
        // loadaudit:disable raw-progress-view - the legacy screen, migrated in 2.1
        ProgressView()
        ProgressView().controlSize(.small)
        // loadaudit:enable raw-progress-view
        ProgressView()
        ThemedSpinner(size: 24) /* loadaudit:ignore themed-spinner */
        /* loadaudit:ignore-next-line loading-dots */
        LoadingDots()
        /**
         * loadaudit:ignore all - the onboarding demo shows the old components on purpose
         */
        LoadingDots(); ThemedSpinner(size: 16)
        ThemedSpinner(size: 16)
        """)
        let findings = try RuleHarness.findings(source)
        XCTAssertEqual(findings.map { "\($0.ruleId) \($0.start.line)" }, ["raw-progress-view 11", "themed-spinner 19"])
    }

    /// A region without its `enable` runs to the end of the file; `all` on either side closes it.
    func testARegionRunsToItsEnableOrTheEndOfTheFile() throws {
        let open = RuleHarness.inView("ProgressView()\n// loadaudit:disable raw-progress-view, loading-dots\nProgressView()\nLoadingDots()")
        XCTAssertEqual(try RuleHarness.findings(open).map { "\($0.ruleId) \($0.start.line)" }, ["raw-progress-view 7"])
        let all = RuleHarness.inView("// loadaudit:disable all\nProgressView()\n// loadaudit:enable all\nLoadingDots()")
        XCTAssertEqual(try RuleHarness.findings(all).map { "\($0.ruleId) \($0.start.line)" }, ["loading-dots 10"])
    }

    /// Every form that silences nothing is reported where it stands, saying why.
    func testUnusedSuppressionsOfEveryForm() throws {
        let source = RuleHarness.inView("""
        // loadaudit:ignore
        ProgressView()
        // loadaudit:enable loading-dots
        /* loadaudit:disable themed-spinner */
        Text("Done")
        // loadaudit:enable themed-spinner
        // loadaudit:ignore-next-line all
        Text("Done")
        """)
        let findings = try RuleHarness.findings(source)
        XCTAssertEqual(findings.map { "\($0.ruleId) \($0.start.line) \($0.symbol)" }, [
            "unused-suppression 7 loadaudit:ignore", "raw-progress-view 8 ProgressView", "unused-suppression 9 loadaudit:enable",
            "unused-suppression 10 loadaudit:disable", "unused-suppression 13 loadaudit:ignore-next-line",
        ])
        let messages = findings.filter { $0.ruleId == "unused-suppression" }.map(\.message)
        XCTAssertTrue(messages[0].hasSuffix("(it names no rule: write the rule ids it is for, or all)"), messages[0])
        XCTAssertTrue(messages[1].hasSuffix("(no loadaudit:disable before it disables loading-dots)"), messages[1])
        XCTAssertTrue(messages[2].hasSuffix("(no themed-spinner finding on lines 10-12)"), messages[2])
        XCTAssertTrue(messages[3].hasSuffix("(no finding on line 14)"), messages[3])
    }

    /// A file whose only trace of loadaudit is a suppression in a block comment: an unused one is
    /// reported (AuditSelectTests checks that the select step parses such a file).
    func testAnUnusedSuppressionInABlockCommentIsReported() throws {
        let bytes = Array("import SwiftUI\n/* loadaudit:ignore themed-spinner */\nlet x = 1\n".utf8)
        XCTAssertEqual(try RuleHarness.findings(String(decoding: bytes, as: UTF8.self)).map(\.ruleId), ["unused-suppression"])
    }
}
