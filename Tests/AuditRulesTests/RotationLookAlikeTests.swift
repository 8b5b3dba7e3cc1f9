import AuditModel
import AuditRules
import XCTest

/// Shapes seen in public apps that a name-only match took for rotating text.
final class RotationLookAlikeTests: XCTestCase {
    let rules = try! RuleSet.builtIn().selecting(["rotating-loading-message"])

    func testATextPropertyOfAnotherEnumIsNotAPhaseMessage() throws {
        let files = [
            "Kind.swift": """
            enum ItemKind {
                case movie, series
                var displayTitle: String {
                    switch self {
                    case .movie: return "Movie"
                    case .series: return "Series"
                    }
                }
            }

            """,
            "Player.swift": """
            final class Player {
                var item: BaseItem?
                func follow() async {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(1))
                        item = await queue.next()
                    }
                }
            }

            """,
            "Row.swift": "import SwiftUI\nstruct Row: View {\n    let item: BaseItem\n    var body: some View { Text(item.displayTitle) }\n}\n",
        ]
        XCTAssertEqual(try RuleHarness.findings(files: files, rules: rules), [])
    }

    func testAPhaseEnumSwitchedByAClockIsReportedWhereverItIsShown() throws {
        let files = [
            "Phase.swift": """
            enum LoadingPhase {
                case connecting, downloading
                var message: String {
                    switch self {
                    case .connecting: "Connecting..."
                    case .downloading: "Downloading..."
                    }
                }
            }

            """,
            "Model.swift": """
            @Observable final class Model {
                var phase = LoadingPhase.connecting
                func start() {
                    DispatchQueue.main.asyncAfter(deadline: .now() + 2) { self.phase = LoadingPhase.downloading }
                }
            }

            """,
            "Screen.swift": "import SwiftUI\nstruct Screen: View {\n    let model: Model\n    var body: some View { Text(model.phase.message) }\n}\n",
        ]
        let findings = try RuleHarness.findings(files: files, rules: rules)
        XCTAssertEqual(findings.map { "\($0.file):\($0.start.line):\($0.start.column)" }, ["Screen.swift:4:27"])
        XCTAssertEqual(findings.first?.related.map { "\($0.file):\($0.line)" }, ["Phase.swift:3", "Model.swift:4"])
    }
}
