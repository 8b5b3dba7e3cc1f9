import AuditModel
import AuditRules
import SwiftGrammar
import TreeSitter
import XCTest

/// Decisions that need more than one call site: other files, enclosing declarations, broken code.
final class ProjectContextTests: XCTestCase {
    let ownProgressView = """
    import UIKit

    /// The app's own HUD, older than SwiftUI.
    final class ProgressView: UIView {
        override init(frame: CGRect) { super.init(frame: frame) }
        required init?(coder: NSCoder) { nil }
    }

    """

    func testAnAppDeclaredProgressViewIsNotSwiftUIsInFilesThatDoNotImportSwiftUI() throws {
        let uikitScreen = """
        import UIKit

        final class UploadViewController: UIViewController {
            private let hud = ProgressView(frame: .zero)
            private var spinner: ProgressView?
            override func viewDidLoad() {
                view.addSubview(ProgressView())
            }
        }

        """
        let findings = try RuleHarness.findings(files: ["Legacy/ProgressView.swift": ownProgressView, "Legacy/Upload.swift": uikitScreen])
        XCTAssertEqual(findings, [])
    }

    func testWithAnAppDeclaredProgressViewOnlyFilesThatAlsoImportItsFrameworkAreAmbiguous() throws {
        let swiftUIOnly = "import SwiftUI\n\nstruct A: View {\n    var body: some View { ProgressView() }\n}\n"
        let findings = try RuleHarness.findings(files: ["Legacy/ProgressView.swift": ownProgressView, "A.swift": swiftUIOnly])
        XCTAssertEqual(findings.map(\.fix), [.safe])
    }

    func testQualifiedSwiftUIProgressViewIsReportedAndUnqualifiedIsUnsafeWhenTheAppHasItsOwn() throws {
        let swiftUIScreen = """
        import SwiftUI
        import UIKit

        struct SyncView: View {
            var body: some View {
                VStack {
                    SwiftUI.ProgressView()
                    ProgressView()
                }
            }
        }

        """
        let findings = try RuleHarness.findings(files: ["Legacy/ProgressView.swift": ownProgressView, "SyncView.swift": swiftUIScreen])
        XCTAssertEqual(findings.map(\.start.line), [7, 8])
        XCTAssertEqual(findings.map(\.fix), [.safe, .unsafe])
        XCTAssertTrue(findings[1].message.contains("declares its own ProgressView in Legacy/ProgressView.swift"), findings[1].message)
        XCTAssertEqual(findings[1].replacement, "LoadingSpinner(size: .medium)")
    }

    func testAnAppsOwnSwiftUIViewNamedProgressViewShadowsSwiftUIsEverywhere() throws {
        // Seen in a public macOS app: `struct ProgressView: View` in a file that imports only SwiftUI.
        let ownView = "import SwiftUI\n\nstruct ProgressView: View {\n    let task: HelperTask\n    var body: some View { Text(task.name) }\n}\n"
        let screen = "import SwiftUI\n\nstruct Main: View {\n    var body: some View {\n        ProgressView(task: helperTask)\n        SwiftUI.ProgressView()\n    }\n}\n"
        let findings = try RuleHarness.findings(files: ["ProgressView.swift": ownView, "Main.swift": screen])
        XCTAssertEqual(findings.map { "\($0.file):\($0.start.line)" }, ["Main.swift:6"])
    }

    func testAUseInsideAnUnreadableRegionIsReportedButNotSafe() throws {
        // tree-sitter can wrap a whole file in one ERROR node; nothing in it may be silently skipped.
        let source = "import SwiftUI\n\nfunc load() async {\n    if !ready, let s = try? await fetch() { use(s) }\n    let spinner = ThemedSpinner(size: 24)\n"
        let analysis = try RuleHarness.analysis(source)
        XCTAssertFalse(analysis.syntaxErrors.isEmpty)
        let findings = analysis.candidates.map(\.finding)
        XCTAssertEqual(findings.map(\.ruleId), ["themed-spinner"])
        XCTAssertEqual(findings.first?.fix, .unsafe)
        XCTAssertTrue(findings.first?.message.contains("syntax error") == true, findings.first?.message ?? "")
    }

    func testWithoutAnOwnDeclarationAFileWithoutTheImportIsStillReported() throws {
        // Imports can come through another module (`@_exported import SwiftUI`): without a competing
        // declaration, the name can only be SwiftUI's.
        let findings = try RuleHarness.findings(files: ["A.swift": "import Foundation\nlet spinner = ProgressView()\n"])
        XCTAssertEqual(findings.map(\.ruleId), ["raw-progress-view"])
    }

    func testAnExportedImportAnywhereCountsAsAnImportEverywhere() throws {
        let files = [
            "Legacy/ProgressView.swift": ownProgressView,
            "Exports.swift": "@_exported import SwiftUI\n",
            "Screen.swift": "import Foundation\nlet spinner = ProgressView()\n",
        ]
        let findings = try RuleHarness.findings(files: files)
        XCTAssertEqual(findings.map(\.file), ["Screen.swift"])
        XCTAssertEqual(findings.first?.fix, .safe)
    }

    /// Only an attribute named `_exported` re-exports: not `@_exportedUI` (found by the fuzzer in broken
    /// code), nor the words of a comment inside the import.
    func testOnlyTheExportedAttributeReExports() throws {
        let parser = try Parser()
        let cases: [(source: String, exported: Set<String>)] = [
            ("@_exported import SwiftUI\n", ["SwiftUI"]),
            ("@_exported import struct UIKit.UIView\n", ["UIKit"]),
            ("@_exportedUI import Combine\n", []),
            ("import /* @_exported */ Foundation\n", []),
        ]
        for (source, exported) in cases {
            let facts = SwiftFileFacts(tree: try parser.parse(SourceText(bytes: Array(source.utf8))))
            XCTAssertEqual(facts.exportedImports, exported, source)
        }
    }

    func testDeclarationsOfDeprecatedComponentsAreReportedAtTheirNameWithNoFix() throws {
        let source = """
        import SwiftUI

        struct ThemedSpinner: View {
            var size: CGFloat = 24
            var body: some View { Circle().trim(from: 0, to: 0.7) }
        }

        extension LoadingOverlay {
            static let standard = LoadingOverlay(message: "Loading")
        }

        enum LoadingTextGenerator {
            static func next() -> String { "Reticulating splines..." }
        }

        """
        let findings = try RuleHarness.findings(source)
        XCTAssertEqual(findings.map(\.ruleId), ["themed-spinner", "loading-overlay", "loading-overlay", "loading-text-generator"])
        XCTAssertEqual(findings.map { "\($0.start.line):\($0.start.column)" }, ["3:8", "8:11", "9:27", "12:6"])
        XCTAssertEqual(findings.map(\.fix), [.manual, .manual, .safe, .manual])
        XCTAssertTrue(findings[0].message.contains("declaration"))
    }

    func testNothingInsideNewOrKeptComponentsIsReported() throws {
        let source = """
        import SwiftUI

        struct LoadingSheet: View {
            let label: String
            var body: some View { VStack { ProgressView(); Text(label) } }
        }

        struct PulsingDot: View {
            var body: some View { ProgressView().scaleEffect(0.5) }
        }

        extension LoadingSpinner {
            static var legacy: some View { ThemedSpinner(size: 24) }
        }

        struct Elsewhere: View {
            var body: some View { ProgressView() }
        }

        """
        let findings = try RuleHarness.findings(source)
        XCTAssertEqual(findings.map(\.start.line), [17])
    }

    func testUsagesOutsideABrokenRegionAreReportedAndTheErrorIsCounted() throws {
        let source = """
        import SwiftUI

        struct HalfEditedView: View {
            var body: some View {
                ThemedSpinner(size: 16)
            }

            func broken( {
                let x = [1, 2
            }
        }

        """
        let analysis = try RuleHarness.analysis(source)
        XCTAssertFalse(analysis.syntaxErrors.isEmpty)
        XCTAssertEqual(analysis.candidates.map(\.finding.ruleId), ["themed-spinner"])
        XCTAssertEqual(analysis.candidates.first?.finding.start.line, 5)
    }

    /// Freestanding macros are macro invocations to the grammar (tree-sitter-swift 0.7; the grammar
    /// before it wrapped a bare `#Preview` in an ERROR node, which the engine had to forgive).
    func testPreviewMacrosAreNotSyntaxErrorsAndTheirContentIsScanned() throws {
        let source = """
        import SwiftUI
        import Testing

        #Preview("Dark") {
            ThemedSpinner(size: 40)
                .preferredColorScheme(.dark)
        }

        #Preview {
            LoadingDots()
        }

        @Test func spinnerSize() {
            #expect(LoadingSpinner.Size.small.points == 16)
            let overlay = #require(LoadingOverlay(message: "Exporting PDF"))
        }

        """
        let analysis = try RuleHarness.analysis(source)
        XCTAssertEqual(analysis.syntaxErrors, [])
        XCTAssertEqual(analysis.candidates.map(\.finding.ruleId), ["themed-spinner", "loading-dots", "loading-overlay"])
    }

    /// Two shapes of valid Swift the grammar misreads, each leaving the rest of the tree right, are not
    /// syntax errors; the same shapes with a real mistake in them are.
    func testTheGrammarsKnownGapsAreNotSyntaxErrors() throws {
        let valid = """
            import SwiftUI

            func upload(completion: @escaping (Result<Void, Error>) -> Void) {
                completion(.success(()))
                seal.fulfill( () )
                let none: Void = ()
            }

            @available(iOS 17.0, macOS 14.0, *)
            #Preview {
                ThemedSpinner(size: 40)
            }

            """
        let analysis = try RuleHarness.analysis(valid)
        XCTAssertEqual(analysis.syntaxErrors.map { "\($0.line):\($0.column)" }, [])
        XCTAssertEqual(analysis.candidates.map(\.finding.ruleId), ["themed-spinner"])

        for broken in ["func f() { completion(.success(( )) }\n", "func f() { seal.fulfill((x)) ) }\n", "@available(iOS 17.0, *\n#Preview { Text(\"a\") }\n",
                       "func f() { let t = (1, ) + }\n"] {
            XCTAssertFalse(try RuleHarness.analysis(broken).syntaxErrors.isEmpty, broken)
        }
    }

    func testFindingsAreSortedByFileLineAndColumn() throws {
        let files = [
            "b.swift": "import SwiftUI\nlet a = LoadingDots(); let b = ProgressView()\n",
            "a.swift": "import SwiftUI\n\nlet c = PlaceholderCard()\n",
        ]
        let findings = try RuleHarness.findings(files: files)
        XCTAssertEqual(findings.map { "\($0.file):\($0.start.line):\($0.start.column)" }, ["a.swift:3:9", "b.swift:2:9", "b.swift:2:32"])
    }
}
