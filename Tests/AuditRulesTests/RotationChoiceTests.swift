import AuditModel
import AuditRules
import XCTest

/// Rotation carried through an initializer that chooses a state and a computed member that shows it
/// (issue 41): the ways code reaches `Stage(seconds:).message` from the time, and its look-alikes.
final class RotationChoiceTests: XCTestCase {
    let rules = try! RuleSet.builtIn().selecting(["rotating-loading-message"])

    /// A struct whose initializer picks a stored stage by thresholds, declared in its own file.
    let stage = """
    struct UploadStage {
        let level: Int
        init(seconds: Double) {
            if seconds < 2 {
                level = 0
            } else {
                level = seconds < 6 ? 1 : 2
            }
        }
        var message: String {
            switch level {
            case 0: return "Uploading..."
            case 1: return "Still uploading..."
            default: return "Almost there..."
            }
        }
    }

    """

    func places(_ files: [String: String]) throws -> [String] {
        try RuleHarness.findings(files: files, rules: rules).map { "\($0.file):\($0.start.line):\($0.start.column)" }
    }

    func testAStageMadeFromATimelinesDateThroughALocalIsReported() throws {
        let view = """
        import SwiftUI
        struct UploadView: View {
            let start: Date
            var body: some View {
                TimelineView(.periodic(from: start, by: 1)) { context in
                    let stage = UploadStage(seconds: context.date.timeIntervalSince(start))
                    Text(stage.message)
                }
            }
        }

        """
        XCTAssertEqual(try places(["Stage.swift": stage, "UploadView.swift": view]), ["UploadView.swift:7:13"])
    }

    func testAComputedPropertyMakingAStageFromATimersElapsedTimeIsReported() throws {
        let model = """
        import Observation
        @Observable final class UploadModel {
            var elapsed = 0.0
            var status: String { UploadStage(seconds: elapsed).message }
            func start() {
                Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] _ in self?.elapsed += 1 }
            }
        }

        """
        let view = "import SwiftUI\nstruct UploadView: View {\n    @State private var model = UploadModel()\n    var body: some View { Text(model.status) }\n}\n"
        XCTAssertEqual(try places(["Stage.swift": stage, "UploadModel.swift": model, "UploadView.swift": view]), ["UploadView.swift:4:27"])
    }

    func testAStageMadeFromAnythingButTimeIsNot() throws {
        let view = """
        import SwiftUI
        struct UploadView: View {
            let seconds: Double
            let start: Date
            var body: some View {
                VStack {
                    Text(UploadStage(seconds: seconds).message)
                    TimelineView(.periodic(from: start, by: 1)) { context in
                        Text(Duration.seconds(context.date.timeIntervalSince(start)).formatted())
                    }
                }
            }
        }

        """
        XCTAssertEqual(try places(["Stage.swift": stage, "UploadView.swift": view]), [])
    }

    func testATypeWhoseInitializerDoesNotChooseIsNot() throws {
        let label = """
        struct Caption {
            let seconds: Double
            init(seconds: Double) { self.seconds = seconds }
            var message: String { seconds < 2 ? "Short" : "Long" }
        }

        """
        let view = """
        import SwiftUI
        struct CaptionView: View {
            var body: some View {
                TimelineView(.periodic(from: .now, by: 1)) { context in
                    Text(Caption(seconds: context.date.timeIntervalSince1970).message)
                }
            }
        }

        """
        XCTAssertEqual(try places(["Caption.swift": label, "CaptionView.swift": view]), [])
    }
}
