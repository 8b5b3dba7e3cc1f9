import AuditModel
import AuditRules
import TreeSitter
import XCTest

/// The names a file's clocks link by (`RotationFacts.linkingNames`): the select step parses the files
/// of a workspace that state one, and the resolver joins only those. A name missing here loses a
/// finding; a needless one parses files for nothing.
final class RotationLinkTests: XCTestCase {
    private let engine = RuleEngine(ruleSet: try! RuleSet.builtIn().selecting(["rotating-loading-message"]))

    private func links(_ source: String) throws -> Set<String> {
        try XCTUnwrap(engine.analyze(tree: try Parser().parse(source), file: "View.swift").rotation).linkingNames
    }

    func testADisplayBesideAClockLinksOnlyWhenItShowsWhatTheClockChanges() throws {
        // The clock shakes a field; the subtitle comes from elsewhere: `Context` links nothing of it.
        let shaking = """
            import SwiftUI
            struct LockScreen: View {
                @ObservedObject var context: LockViewModel.Context
                @State private var offset = 0.0
                var body: some View { Text(context.viewState.subtitle) }
                func shake() async {
                    offset = 15
                    try? await Task.sleep(for: .milliseconds(50))
                    offset = 0
                }
            }
            """
        XCTAssertEqual(try links(shaking), ["LockScreen"])
        // The same display when the clock moves the state it reads: its type links.
        let moving = """
            import SwiftUI
            struct LockScreen: View {
                @ObservedObject var context: Context
                var body: some View { Text(context.hints[context.index]) }
                func start() {
                    Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { _ in context.index += 1 }
                }
            }
            """
        XCTAssertEqual(try links(moving), ["LockScreen", "Context"])
        // Through a computed value of the file: `message` reads `step`, which the clock moves.
        let computed = """
            import SwiftUI
            struct Sync: View {
                @State private var step = 0
                var message: String { SyncCopy.lines[step] }
                var body: some View { Text(message) }
                func start() { Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { _ in step += 1 } }
            }
            """
        XCTAssertEqual(try links(computed), ["Sync", "SyncCopy"])
    }

    func testAStateMovedBetweenCasesLinksItsEnum() throws {
        let model = """
            @Observable final class Model {
                var phase = LoadingPhase.connecting
                func start() { DispatchQueue.main.asyncAfter(deadline: .now() + 2) { self.phase = .downloading } }
            }
            """
        XCTAssertEqual(try links(model), ["Model", "LoadingPhase"])
        XCTAssertEqual(try links(model.replacingOccurrences(of: "self.phase = .downloading", with: "self.phase = LoadingPhase.downloading")),
                       ["Model", "LoadingPhase"])
    }

    /// End to end: the strings a computed value reads live in another file, which only the link names.
    func testTheStringsOfAComputedValueAreFoundInAnotherFile() throws {
        let files = [
            "SyncCopy.swift": "enum SyncCopy {\n    static let lines = [\"Warming up the servers\", \"Counting sheep\"]\n}\n",
            "Sync.swift": """
            import SwiftUI
            struct Sync: View {
                @State private var step = 0
                var message: String { SyncCopy.lines[step % SyncCopy.lines.count] }
                var body: some View { Text(message) }
                func start() { Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { _ in step += 1 } }
            }

            """,
            "Unrelated.swift": "struct Settings {\n    static let lines = [\"a\", \"b\"]\n}\n",
        ]
        let findings = try RuleHarness.findings(files: files, rules: engine.ruleSet)
        XCTAssertEqual(findings.map { "\($0.file):\($0.start.line)" }, ["Sync.swift:5"])
        XCTAssertEqual(findings.first?.related.map(\.file).contains("SyncCopy.swift"), true)
    }
}
