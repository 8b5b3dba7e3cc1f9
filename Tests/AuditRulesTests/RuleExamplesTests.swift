import AuditModel
import AuditRules
import XCTest

/// The migration rules' examples live in their rules file (rules/loading-migration.yml, `examples:`):
/// where each finding starts, what a rule leaves alone, what its fix writes and of which class. The
/// suite runs them (`RuleExampleChecksTests`, as `loadaudit rules test` does), each in comments, in a
/// string and after non-ASCII text too. Kept here is what an example there cannot say: the words of a
/// finding's message (why its fix is lowered: the file pins classes, not messages; the codes below are
/// also examples there), how many columns a tab counts for, and how far a finding's span reaches (an
/// example marks only where a finding starts).
final class RuleExamplesTests: XCTestCase {
    /// A finding's code, its rule, and words its message must hold.
    static let reasons: [(code: String, rule: String, message: String)] = [
        (#"ProgressView { HStack { Image(systemName: "clock"); Text("Wait") } }"#, "raw-progress-view", "label view"),
        (#"ProgressView("Loading \(count) games")"#, "raw-progress-view", "plain string literal"),
        ("ProgressView(title)", "raw-progress-view", "cannot tell whether title is a label or a Progress"),
        ("ProgressView().progressViewStyle(RingStyle())", "raw-progress-view", "RingStyle()"),
        ("ProgressView().progressViewStyle(.linear)", "raw-progress-view", ".linear"),
        ("ProgressView(value: progress)\n    .progressViewStyle(SpinnerRingStyle())", "raw-progress-view", "custom indicator"),
        ("ProgressView(value: progress).progressViewStyle(RotatingArcStyle())", "raw-progress-view", "custom indicator"),
        ("ThemedSpinner(size: spinnerSize)", "themed-spinner", "not a number"),
        ("ThemedSpinner(size: 24, color: .white)", "themed-spinner", "color: .white"),
        (#"LoadingOverlay(isPresented: $isLoading, message: "Syncing data")"#, "loading-overlay", "isPresented"),
    ]

    func testTheMessageSaysWhyTheFixIsLowered() throws {
        for reason in Self.reasons {
            let findings = try RuleHarness.findings(RuleHarness.inView(reason.code))
            XCTAssertEqual(findings.map(\.ruleId), [reason.rule], reason.code)
            let message = findings.first?.message ?? ""
            XCTAssertTrue(message.contains(reason.message), "\(reason.code): message '\(message)' lacks '\(reason.message)'")
        }
    }

    func testTabIndentedCodeCountsATabAsOneColumn() throws {
        let source = "import SwiftUI\nstruct V: View {\n\tvar body: some View {\n\t\tProgressView()\n\t}\n}\n"
        let finding = try XCTUnwrap(RuleHarness.findings(source).first)
        XCTAssertEqual(finding.start.line, 4)
        XCTAssertEqual(finding.start.column, 3)
        XCTAssertEqual(finding.end.column, 17)
    }

    func testSpanCoversExactlyTheCallAndItsAbsorbedModifiers() throws {
        let source = RuleHarness.inView("ProgressView()\n    .scaleEffect(0.6)\n    .tint(.white)\n    .padding()")
        let finding = try XCTUnwrap(RuleHarness.findings(source).first)
        let bytes = Array(source.utf8)
        let covered = String(decoding: bytes[finding.start.byteOffset..<finding.end.byteOffset], as: UTF8.self)
        XCTAssertEqual(covered, "ProgressView()\n                .scaleEffect(0.6)\n                .tint(.white)")
        XCTAssertEqual(finding.end.line, finding.start.line + 2)
    }

    func testAbsorptionStopsAtDirectivesAndUnknownModifiersButNotAtComments() throws {
        let cases: [(String, String)] = [
            ("ProgressView()\n    // keep this note\n    .controlSize(.small)\n    .padding()",
             "ProgressView()\n                // keep this note\n                .controlSize(.small)"),
            ("ProgressView()\n    .if(isCompact) { $0.opacity(0.5) }\n    .controlSize(.small)", "ProgressView()"),
            ("ProgressView()\n    .controlSize(.small)\n#if os(iOS)\n    .tint(.red)\n#endif", "ProgressView()\n                .controlSize(.small)"),
            ("ProgressView()\n    .frame(width: 20)\n    .scaleEffect(0.5)", "ProgressView()"),
        ]
        for (code, expectedSpan) in cases {
            let source = RuleHarness.inView(code)
            let finding = try XCTUnwrap(RuleHarness.findings(source).first, code)
            let covered = String(decoding: Array(source.utf8)[finding.start.byteOffset..<finding.end.byteOffset], as: UTF8.self)
            XCTAssertEqual(covered, expectedSpan, code)
        }
    }
}
