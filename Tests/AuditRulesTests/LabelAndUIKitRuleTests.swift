import AuditModel
import AuditRules
import XCTest

final class LabelAndUIKitRuleTests: XCTestCase {
    let labelRules = try! RuleSet.builtIn().selecting(["loading-label-style"])

    func labels(_ code: String) throws -> [String] {
        try RuleHarness.findings(RuleHarness.inView(code), rules: labelRules).map(\.message)
    }

    func testStaticLabelsOfTheRightFormPass() throws {
        for code in [
            #"LoadingSpinner(size: .small, label: "Loading games...")"#, #"LoadingSheet(label: "Planning trip")"#,
            #"LoadingSheet(label: "Exporting PDF", detail: "Generating maps...")"#, #"LoadingSpinner(size: .medium, label: "Loading")"#,
            #"ProgressView("Loading schedule...")"#, #"ProgressView { Text("Syncing data") }"#, "LoadingSpinner(size: .small)",
            #"ProgressView("Uploading 3 photos", value: sent, total: 3)"#, #"LoadingSheet(label: "Loading schedule…")"#,
        ] {
            XCTAssertEqual(try labels(code), [], code)
        }
    }

    func testCleverDynamicOrMisshapenLabelsAreNotes() throws {
        let cases: [(String, String)] = [
            (#"LoadingSpinner(size: .small, label: "Hang tight!")"#, #""Hang tight!" does not read"#),
            (#"LoadingSheet(label: "Crunching numbers...")"#, #""Crunching numbers..." does not read"#),
            (#"LoadingSpinner(size: .small, label: "Loading \(count) games...")"#, "changes at run time"),
            ("LoadingSheet(label: viewModel.statusMessage)", "`viewModel.statusMessage`, not one static string"),
            (#"ProgressView { Text("Almost there") }"#, #""Almost there" does not read"#),
            (#"ProgressView { HStack { Text("a"); Text("b") } }"#, "the label is a view"),
            (#"LoadingSpinner(size: .small, label: "Loading games")"#, #""Loading games" does not read"#),
        ]
        for (code, fragment) in cases {
            let messages = try labels(code)
            XCTAssertEqual(messages.count, 1, code)
            XCTAssertTrue(messages.first?.contains(fragment) == true, "\(code): \(messages)")
        }
        let finding = try XCTUnwrap(RuleHarness.findings(RuleHarness.inView(#"LoadingSheet(label: "Hang tight!")"#), rules: labelRules).first)
        XCTAssertEqual(finding.severity, .note)
        XCTAssertEqual(finding.fix, .manual)
        XCTAssertEqual(finding.start.column, 33, "the finding sits on the label")
    }

    func testUIKitActivityIndicatorsAreReportedAsManual() throws {
        let source = """
        import UIKit

        final class UploadViewController: UIViewController {
            private let spinner = UIActivityIndicatorView(style: .medium)
            private var large: UIActivityIndicatorView?
            override func viewDidLoad() {
                // UIActivityIndicatorView() in a comment
                view.addSubview(spinner)
            }
        }

        """
        let rules = try RuleSet.builtIn().selecting(["uikit-activity-indicator"])
        let findings = try RuleHarness.findings(source, rules: rules)
        XCTAssertEqual(findings.map { "\($0.start.line):\($0.start.column):\($0.fix.rawValue)" }, ["4:27:manual", "5:24:manual"])
    }
}
