import AuditModel
import AuditRules
import XCTest

/// Every rule and replacement of the migration table, as triggering and non-triggering examples.
/// Each triggering example is also checked wrapped in a comment, wrapped in a string literal, and
/// after a line of non-ASCII text, which catches matching in the wrong places and offset bugs.
final class RuleExamplesTests: XCTestCase {
    struct Example {
        let code: String
        let rule: String
        let fix: FixClass
        let replacement: String?
        var messageContains: String? = nil
        let line: UInt

        init(_ code: String, _ rule: String, _ fix: FixClass, _ replacement: String?, message: String? = nil, line: UInt = #line) {
            self.code = code
            self.rule = rule
            self.fix = fix
            self.replacement = replacement
            messageContains = message
            self.line = line
        }
    }

    static let triggering: [Example] = [
        // raw-progress-view: labels
        Example("↓ProgressView()", "raw-progress-view", .safe, "LoadingSpinner(size: .medium)"),
        Example(#"↓ProgressView("Loading games...")"#, "raw-progress-view", .safe, #"LoadingSpinner(size: .medium, label: "Loading games...")"#),
        Example(#"↓ProgressView { Text("Loading") }"#, "raw-progress-view", .safe, #"LoadingSpinner(size: .medium, label: "Loading")"#),
        Example(#"↓ProgressView(label: { Text("Loading") })"#, "raw-progress-view", .safe, #"LoadingSpinner(size: .medium, label: "Loading")"#),
        Example("↓ProgressView { Text(title) }", "raw-progress-view", .unsafe, "LoadingSpinner(size: .medium, label: title)"),
        Example(#"↓ProgressView { HStack { Image(systemName: "clock"); Text("Wait") } }"#, "raw-progress-view", .unsafe,
                "LoadingSpinner(size: .medium)", message: "label view"),
        Example(#"↓ProgressView("Loading \(count) games")"#, "raw-progress-view", .unsafe,
                #"LoadingSpinner(size: .medium, label: "Loading \(count) games")"#, message: "plain string literal"),
        Example("↓ProgressView(L10n.commonLoading)", "raw-progress-view", .unsafe, "LoadingSpinner(size: .medium, label: L10n.commonLoading)"),
        Example(#"↓ProgressView(NSLocalizedString("loading", comment: ""))"#, "raw-progress-view", .unsafe,
                #"LoadingSpinner(size: .medium, label: NSLocalizedString("loading", comment: ""))"#),
        Example("↓ProgressView(title)", "raw-progress-view", .unsafe, "LoadingSpinner(size: .medium, label: title)",
                message: "cannot tell whether title is a label or a Progress"),
        // raw-progress-view: sizes and absorbed modifiers
        Example("↓ProgressView().scaleEffect(0.6)", "raw-progress-view", .safe, "LoadingSpinner(size: .small)"),
        Example("↓ProgressView().scaleEffect(1.5)", "raw-progress-view", .safe, "LoadingSpinner(size: .medium)"),
        Example("↓ProgressView()\n    .scaleEffect(0.5, anchor: .center)", "raw-progress-view", .safe, "LoadingSpinner(size: .small)"),
        Example("↓ProgressView()\n    .controlSize(.small)", "raw-progress-view", .safe, "LoadingSpinner(size: .small)"),
        Example("↓ProgressView()\n    .controlSize(.mini)", "raw-progress-view", .safe, "LoadingSpinner(size: .small)"),
        Example("↓ProgressView().controlSize(.large)", "raw-progress-view", .safe, "LoadingSpinner(size: .large)"),
        Example("↓ProgressView().controlSize(.extraLarge)", "raw-progress-view", .safe, "LoadingSpinner(size: .large)"),
        Example("↓ProgressView()\n    .progressViewStyle(.circular)\n    .tint(.white)", "raw-progress-view", .safe, "LoadingSpinner(size: .medium)"),
        Example("↓ProgressView().progressViewStyle(CircularProgressViewStyle(tint: .white))", "raw-progress-view", .safe, "LoadingSpinner(size: .medium)"),
        Example("↓ProgressView().scaleEffect(.init(width: 1, height: -1))", "raw-progress-view", .safe, "LoadingSpinner(size: .medium)"),
        Example("↓ProgressView().scaleEffect(y: 2)", "raw-progress-view", .safe, "LoadingSpinner(size: .medium)"),
        Example("↓SwiftUI.ProgressView()", "raw-progress-view", .safe, "LoadingSpinner(size: .medium)"),
        Example("↓ProgressView.init()", "raw-progress-view", .safe, "LoadingSpinner(size: .medium)"),
        // raw-progress-view: not plain spinners
        Example("↓ProgressView().progressViewStyle(RingStyle())", "raw-progress-view", .manual, nil, message: "RingStyle()"),
        Example("↓ProgressView().progressViewStyle(.linear)", "raw-progress-view", .manual, nil, message: ".linear"),
        Example("VStack { ↓ProgressView() }\n    .progressViewStyle(.linear)", "raw-progress-view", .manual, nil),
        Example("↓ProgressView(value: progress)\n    .progressViewStyle(SpinnerRingStyle())", "raw-progress-view", .manual, nil, message: "custom indicator"),
        Example("↓ProgressView(value: progress).progressViewStyle(RotatingArcStyle())", "raw-progress-view", .manual, nil, message: "custom indicator"),
        // themed spinners: numeric sizes map to the nearest of 16 / 24 / 40 pt, a tie to the smaller
        Example("↓ThemedSpinner(size: 20, lineWidth: 2)", "themed-spinner", .safe, "LoadingSpinner(size: .small)"),
        Example("↓ThemedSpinner(size: 24)", "themed-spinner", .safe, "LoadingSpinner(size: .medium)"),
        Example("↓ThemedSpinner(size: 32)", "themed-spinner", .safe, "LoadingSpinner(size: .medium)"),
        Example("↓ThemedSpinner(size: 36, lineWidth: 4)", "themed-spinner", .safe, "LoadingSpinner(size: .large)"),
        Example("↓ThemedSpinner(size: 120)", "themed-spinner", .safe, "LoadingSpinner(size: .large)"),
        Example("↓ThemedSpinner()", "themed-spinner", .safe, "LoadingSpinner(size: .medium)"),
        Example("↓ThemedSpinner(size: spinnerSize)", "themed-spinner", .unsafe, "LoadingSpinner(size: .medium)", message: "not a number"),
        Example("↓ThemedSpinner(size: 24, color: .white)", "themed-spinner", .unsafe, "LoadingSpinner(size: .medium)", message: "color: .white"),
        Example("↓ThemedSpinnerCompact()", "themed-spinner-compact", .safe, "LoadingSpinner(size: .small)"),
        Example("↓ThemedSpinnerCompact(color: .red)", "themed-spinner-compact", .unsafe, "LoadingSpinner(size: .small)"),
        // the other components
        Example("↓LoadingDots()", "loading-dots", .manual, nil),
        Example("↓PlaceholderCard()", "placeholder-card", .safe, "LoadingPlaceholder.card"),
        Example("↓PlanningProgressView()", "planning-progress-view", .safe, #"LoadingSheet(label: "Planning trip")"#),
        Example("↓PlanningProgressView(progress: planner.progress)", "planning-progress-view", .unsafe, #"LoadingSheet(label: "Planning trip")"#),
        Example(#"↓LoadingOverlay(message: "Exporting PDF")"#, "loading-overlay", .safe, #"LoadingSheet(label: "Exporting PDF")"#),
        Example("↓LoadingOverlay()", "loading-overlay", .safe, #"LoadingSheet(label: "Loading")"#),
        Example(#"↓LoadingOverlay("Syncing data")"#, "loading-overlay", .safe, #"LoadingSheet(label: "Syncing data")"#),
        Example("↓LoadingOverlay(message: viewModel.status)", "loading-overlay", .unsafe, "LoadingSheet(label: viewModel.status)"),
        Example(#"↓LoadingOverlay(isPresented: $isLoading, message: "Syncing data")"#, "loading-overlay", .unsafe,
                #"LoadingSheet(label: "Syncing data")"#, message: "isPresented"),
        Example("↓LoadingTripsView()", "loading-trips-view", .manual, nil),
        Example("Text(↓LoadingTextGenerator.randomMessage())", "loading-text-generator", .manual, nil),
        Example("let spinner: ↓ThemedSpinner? = nil", "themed-spinner", .manual, nil),
        Example("let cards: [↓PlaceholderCard] = []", "placeholder-card", .manual, nil),
    ]

    static let notTriggering: [String] = [
        "ProgressView(value: 0.5)",
        "ProgressView(value: done, total: 10)",
        #"ProgressView("Uploading", value: sent, total: 1)"#,
        "ProgressView(timerInterval: start...end)",
        "ProgressView(task.progress)",
        "ProgressView(uploadProgress)",
        "ProgressView(Progress(totalUnitCount: 5))",
        // Determinate bars and gauges keep their progress whatever their style (seen in public apps).
        "ProgressView(value: progress)\n    .progressViewStyle(.linear)",
        "ProgressView(operation.progress).progressViewStyle(LinearProgressViewStyle())",
        "ProgressView(value: percentage / 100).progressViewStyle(.gauge)",
        "ProgressView(value: position, total: duration).progressViewStyle(PlaybackProgressViewStyle(cornerStyle: .round))",
        "ThemedSpinnerStyle()",
        "ProgressViewModel()",
        "makeProgressView()",
        "progressView",
        "isShowingLoadingDots.toggle()",
        "Theme.Components.ProgressView()",
        "LoadingSpinner(size: .small)",
        "LoadingPlaceholder.card",
        #"LoadingSheet(label: "Planning trip")"#,
        "PulsingDot()",
        "// ProgressView()",
        "/* ThemedSpinner(size: 24) */",
        #"Text("ProgressView() and LoadingOverlay")"#,
        "/// Use `ThemedSpinner(size: 24)` here.\nText(verbatim: \"x\")",
    ]

    func testTriggeringExamples() throws {
        for example in Self.triggering {
            let marked = MarkedSource(RuleHarness.inView(example.code))
            let findings = try RuleHarness.findings(marked.text)
            guard findings.count == 1, let finding = findings.first else {
                XCTFail("expected one finding for \(example.code), got \(findings.map { "\($0.ruleId)@\($0.start.line):\($0.start.column)" })", line: example.line)
                continue
            }
            XCTAssertEqual(finding.ruleId, example.rule, example.code, line: example.line)
            XCTAssertEqual(finding.fix, example.fix, "\(example.code): \(finding.message)", line: example.line)
            XCTAssertEqual(finding.replacement, example.replacement, example.code, line: example.line)
            XCTAssertEqual(finding.start.line, marked.line, example.code, line: example.line)
            XCTAssertEqual(finding.start.column, marked.column, example.code, line: example.line)
            if let expected = example.messageContains {
                XCTAssertTrue(finding.message.contains(expected), "\(example.code): message '\(finding.message)' lacks '\(expected)'", line: example.line)
            }
        }
    }

    func testNonTriggeringExamples() throws {
        for code in Self.notTriggering {
            let findings = try RuleHarness.findings(RuleHarness.inView(code))
            XCTAssertEqual(findings.map(\.ruleId), [], code)
        }
    }

    func testExamplesInsideCommentsAndStringsAreNotReported() throws {
        for example in Self.triggering {
            let code = MarkedSource(example.code).text
            let commented = code.split(separator: "\n").map { "// \($0)" }.joined(separator: "\n")
            XCTAssertEqual(try RuleHarness.findings(RuleHarness.inView(commented)).count, 0, "commented: \(code)", line: example.line)
            let blockComment = "/*\n\(code)\n*/"
            XCTAssertEqual(try RuleHarness.findings(RuleHarness.inView(blockComment)).count, 0, "block comment: \(code)", line: example.line)
            let inString = "let sample = #\"\"\"\n\(code)\n\"\"\"#"
            XCTAssertEqual(try RuleHarness.findings(RuleHarness.inView(inString)).count, 0, "string: \(code)", line: example.line)
        }
    }

    /// After a modifier, the grammar's error recovery cuts a declaration keyword off a longer word
    /// (`final classThemedSpinner` reads as `class ThemedSpinner`): no use of the component, and the
    /// prefilter, which looks for whole words, never parses such a file (fuzz/regressions). The same
    /// declarations with the words apart are reported.
    func testANameCutOutOfALongerWordIsNoUse() throws {
        let glued = ["final classThemedSpinner {}", "public structThemedSpinner {}", "@MainActor enumProgressView {}",
                     "public extensionThemedSpinner {}", "private varThemedSpinner = 1", "public protocolLoadingOverlay {}",
                     "final classProgressViewX {}", "let x = ThemedSpinnerX()"]
        for code in glued { XCTAssertEqual(try RuleHarness.findings(code).map(\.ruleId), [], code) }
        XCTAssertEqual(try RuleHarness.findings("final class ThemedSpinner {}").map(\.ruleId), ["themed-spinner"])
        XCTAssertEqual(try RuleHarness.findings("public extension ThemedSpinner {}").map(\.ruleId), ["themed-spinner"])
        XCTAssertEqual(try RuleHarness.findings(RuleHarness.inView("ThemedSpinner()")).map(\.ruleId), ["themed-spinner"])
    }

    func testNonASCIITextBeforeAUsageKeepsColumnsInCharacters() throws {
        for example in Self.triggering {
            let prefix = #"Text("Café Münchën 🏟️"); "#
            let marked = MarkedSource(RuleHarness.inView(prefix + example.code))
            let findings = try RuleHarness.findings(marked.text)
            XCTAssertEqual(findings.count, 1, example.code, line: example.line)
            XCTAssertEqual(findings.first?.start.line, marked.line, example.code, line: example.line)
            XCTAssertEqual(findings.first?.start.column, marked.column, example.code, line: example.line)
            XCTAssertEqual(findings.first?.replacement, example.replacement, example.code, line: example.line)
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

    func testInnermostStyleWins() throws {
        let source = RuleHarness.inView("VStack {\n    ProgressView().progressViewStyle(.circular)\n}\n.progressViewStyle(.linear)")
        let finding = try XCTUnwrap(RuleHarness.findings(source).first)
        XCTAssertEqual(finding.fix, .safe)
    }
}
