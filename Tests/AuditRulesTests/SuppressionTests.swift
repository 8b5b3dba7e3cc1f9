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
        /* loadaudit:ignore raw-progress-view */
        ProgressView()
        """)
        XCTAssertEqual(try RuleHarness.findings(source).map(\.ruleId), ["raw-progress-view", "raw-progress-view"])
    }
}
