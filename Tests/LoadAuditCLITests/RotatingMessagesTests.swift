import Foundation
import XCTest

/// The rotating-message fixture app against its hand-made expectations: every rotating style found
/// at its Text, with the array and the clock as related locations; no look-alike reported.
final class RotatingMessagesTests: XCTestCase {
    func rows(_ name: String) throws -> [[String]] {
        try expectedRows(name).map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    func testEveryRotatingStyleIsFoundWithItsSourcesAndNoLookAlike() throws {
        // In the app's folder, as its team would run it: paths relative to it, as in the tables.
        let run = CLIRun(["scan", "--rule", "rotating-loading-message", "--format", "json", "."],
                         in: Repository.root.appendingPathComponent("fixtures/RotatingMessages").path)
        XCTAssertEqual(run.status, 1, run.errors)
        let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as! [String: Any]
        let findings = report["findings"] as! [[String: Any]]
        let found = findings.map { "\($0["file"]!)\t\($0["line"]!)\t\($0["column"]!)" }
        let expected = try rows("expected-rotating.tsv").map { $0[0...2].joined(separator: "\t") }
        XCTAssertEqual(found, expected)
        XCTAssertTrue(findings.allSatisfy { $0["fix"] as? String == "manual" && $0["replacement"] is NSNull })

        func role(_ message: String) -> String {
            if message.hasPrefix("the strings") || message.hasPrefix("the messages") { return "array" }
            if message == "the random pick" { return "random" }
            if message == "the text it computes" { return "computed" }
            return "timer"
        }
        var related: [String] = []
        for finding in findings {
            for item in finding["related"] as! [[String: Any]] {
                related.append("\(item["file"]!)\t\(item["line"]!)\t\(item["column"]!)\t\(role(item["message"] as! String))\t\(finding["file"]!)\t\(finding["line"]!)")
            }
        }
        XCTAssertEqual(related.sorted(), try rows("expected-rotating-related.tsv").map { $0.joined(separator: "\t") }.sorted())
    }

    func testTheMessageSaysWhatChangesAndWhatToUseInstead() throws {
        let run = CLIRun(["scan", "--rule", "rotating-loading-message", "."],
                         in: Repository.root.appendingPathComponent("fixtures/RotatingMessages/Features/Journal").path)
        XCTAssertTrue(run.output.contains("JournalView.swift:23:25: warning: Loading text that changes over time; use one static, context-specific label in the \"Loading [noun]...\" form. (loadingTips[viewModel.currentTipIndex] changes with a repeating Timer (JournalViewModel.swift:70))"), run.output)
    }

    /// The clocks are the rules file's knowledge: a team whose app ticks with its own scheduler names
    /// it there, and finds what the built-in names cannot; the select step follows the same names
    /// (the report is the same with every file parsed). Each part of `clocks` is tried on its own.
    func testATeamsOwnClockIsNamedInItsRulesFile() throws {
        let rules = """
        version: 1
        rules:
          - id: rotating-tips
            kind: rotating-text
            message: Tips must not rotate.
            display-calls: [Caption]
            clocks:
              closures: {every: the app's Ticker.every}
              waits: {pause: a Clock.pause loop}
              publishers: {Ticker.stream: a Ticker.stream}
              receivers: [onTick]
              time-driven-views: {ClockFace: a ClockFace}
            random-picks: [shuffledOne]
            observable-state: [Published, State]

        """
        let tree = try TemporaryTree([
            "team.yml": rules,
            "App/Tips.swift": "enum Strings {\n    static let tips = [\"Stretch\", \"Drink water\"]\n    static let hints = [\"Swipe left\", \"Pull to refresh\"]\n}\n",
            "App/TipsModel.swift": """
            final class TipsModel: ObservableObject {
                @Published var index = 0
                @Published var hint = ""
                func start() {
                    Ticker.every(3) { [weak self] in self?.advance() }
                }
                private func advance() {
                    index = (index + 1) % Strings.tips.count
                }
                func loop() async {
                    while true {
                        await Clock.pause(2)
                        hint = Strings.hints.shuffledOne() ?? ""
                    }
                }
            }

            """,
            "App/TipsView.swift": """
            struct TipsView: View {
                @StateObject var model = TipsModel()
                @State private var step = 0
                let ticks = Ticker.stream(seconds: 1)
                var body: some View {
                    VStack {
                        Caption(Strings.tips[model.index])
                        Caption(model.hint)
                        Caption(Strings.hints[step]).onTick(ticks) { _ in step += 1 }
                        ClockFace(.seconds(5)) { now in
                            let pick = Int(now.timeIntervalSince1970) % Strings.tips.count
                            Caption(Strings.tips[pick])
                        }
                        Caption(Strings.hints.shuffledOne() ?? "")
                        Text(Strings.tips[model.index])
                    }
                }
            }

            """,
        ])
        let run = CLIRun(["scan", "--rules", "team.yml", "--format", "json", "App"], in: tree.path)
        XCTAssertEqual(run.status, 1, run.errors)
        let findings = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])?["findings"] as? [[String: Any]])
        let found = findings.map { "\($0["line"]!): \(($0["message"] as! String).replacingOccurrences(of: "Tips must not rotate. ", with: ""))" }
        XCTAssertEqual(found, [
            "7: (Strings.tips[model.index] changes with the app's Ticker.every (App/TipsModel.swift:5))",
            "8: (hint takes strings of Strings.hints picked at random with a Clock.pause loop (App/TipsModel.swift:12))",
            "9: (Strings.hints[step] changes with a Ticker.stream (App/TipsView.swift:4))",
            "12: (Strings.tips[pick] changes with a ClockFace (App/TipsView.swift:10))",
            "14: (a random element of Strings.hints)",
        ])
        let everyFile = CLIRun(["scan", "--rules", "team.yml", "--format", "json", "--no-prefilter", "App"], in: tree.path)
        XCTAssertEqual(everyFile.output, run.output)
        // The built-in rules name Text and Apple's clocks: none of these.
        let builtIn = CLIRun(["scan", "--rule", "rotating-loading-message", "--format", "json", "App"], in: tree.path)
        XCTAssertEqual(builtIn.status, 0, builtIn.output)
    }

    /// Names are joined by module and type: a clock that picks `details` of its own type rotates the
    /// displays of that type (in its module, or in a module that imports it), never another type's
    /// `details`, nor the displays of a module that does not see it. A folder holding that package and
    /// an unrelated project with the same names gives exactly the findings of each alone.
    func testAClocksTypeAndModuleDecideWhatItRotates() throws {
        let manifest = """
        // swift-tools-version: 5.9
        import PackageDescription

        let package = Package(
            name: "Shop",
            targets: [
                .target(name: "Ticking"),
                .target(name: "Catalog"),
                .executableTarget(name: "Shop", dependencies: ["Ticking", "Catalog"]),
            ]
        )

        """
        let ticker = """
        import SwiftUI

        final class Ticker: ObservableObject {
            @Published var details = ""
            private let lines = ["Fetching prices...", "Comparing offers...", "Almost there..."]
            func start() {
                Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { [weak self] _ in
                    self?.details = self?.lines.randomElement() ?? ""
                }
            }
        }

        struct TickerBanner: View {
            @StateObject private var ticker = Ticker()
            var body: some View { Text(ticker.details) }
        }

        """
        let shop = [
            "Package.swift": manifest,
            "Sources/Ticking/Ticker.swift": ticker,
            // Another module's type with a member of the same name: not rotating.
            "Sources/Catalog/Item.swift": "import SwiftUI\n\npublic struct Item {\n    public var details: String\n}\n\nstruct ItemRow: View {\n    let item: Item\n    var body: some View { Text(item.details) }\n}\n",
            // The app sees both: the ticker's details rotate, the item's do not.
            "Sources/Shop/StatusView.swift": "import Catalog\nimport SwiftUI\nimport Ticking\n\nstruct StatusView: View {\n    @ObservedObject var ticker: Ticker\n    let item: Item\n    var body: some View {\n        VStack {\n            Text(ticker.details)\n            Text(item.details)\n        }\n    }\n}\n",
        ]
        // An unrelated project in the same folder, with its own `details` and a clock of its own.
        let notes = [
            "Notes/Notes.xcodeproj/project.pbxproj": "// Xcode project\n",
            "Notes/Notes/Note.swift": "import SwiftUI\n\nfinal class Note: ObservableObject {\n    @Published var details = \"\"\n    @Published var saved = false\n    func autosave() {\n        Timer.scheduledTimer(withTimeInterval: 30, repeats: true) { [weak self] _ in self?.saved = true }\n    }\n}\n\nstruct NoteView: View {\n    @ObservedObject var note: Note\n    var body: some View { Text(note.details) }\n}\n",
        ]
        var files: [String: String] = [:]
        for (path, text) in shop { files["Shop/" + path] = text }
        for (path, text) in notes { files[path] = text }
        let tree = try TemporaryTree(files)
        func found(_ folder: String, prefix: String = "") throws -> [String] {
            let run = CLIRun(["scan", "--no-config", "--rule", "rotating-loading-message", "--format", "json", "."], in: folder == "." ? tree.path : tree.url.appendingPathComponent(folder).path)
            let report = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as! [String: Any]
            return (report["findings"] as! [[String: Any]]).map { "\(prefix)\($0["file"]!):\($0["line"]!)" }
        }
        let together = try found(".")
        XCTAssertEqual(together, ["Shop/Sources/Shop/StatusView.swift:10", "Shop/Sources/Ticking/Ticker.swift:15"])
        XCTAssertEqual(together, (try found("Shop", prefix: "Shop/") + found("Notes", prefix: "Notes/")).sorted())
    }

    func testTheRuleCanBeSwitchedOffAndReLevelled() throws {
        let tree = try TemporaryTree([
            "App/View.swift": "import SwiftUI\nstruct V: View {\n    let tips = [\"A\", \"B\"]\n    @State var i = 0\n    var body: some View {\n        Text(tips[i]).onAppear { Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in i += 1 } }\n    }\n}\n",
        ])
        XCTAssertTrue(CLIRun(["scan", "--format", "json", "App"], in: tree.path).output.contains("\"severity\" : \"warning\""))
        try tree.write(".loadaudit.yml", "severity:\n  rotating-loading-message: error\n")
        XCTAssertTrue(CLIRun(["scan", "--format", "json", "App"], in: tree.path).output.contains("\"severity\" : \"error\""))
        try tree.write(".loadaudit.yml", "severity:\n  rotating-loading-message: off\n")
        XCTAssertEqual(CLIRun(["scan", "App"], in: tree.path).status, 0)
    }
}

/// A team on Windows line endings gets the same report: every fixture file with CRLF line breaks
/// gives the same findings (positions, messages, fingerprints, replacements) as with LF.
final class LineEndingTests: XCTestCase {
    func testCRLFFilesGiveTheSameFindingsAsLFFiles() throws {
        for fixture in ["RotatingMessages", "ExampleApp", "SwiftUIDeprecations"] {
            let source = Repository.root.appendingPathComponent("fixtures/" + fixture)
            let tree = try TemporaryTree()
            let files = FileManager.default.enumerator(atPath: source.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") || $0 == ".loadaudit.yml" }
            for file in files {
                let text = try String(contentsOf: source.appendingPathComponent(file), encoding: .utf8)
                try tree.write(file, file.hasSuffix(".swift") ? text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n") : text)
            }
            func findings(_ folder: String) throws -> [String] {
                let run = CLIRun(["scan", "--format", "json", "--fail-on", "never", "."], in: folder)
                let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], run.errors)
                return try XCTUnwrap(report["findings"] as? [[String: Any]]).map { finding in
                    ["file", "line", "column", "endLine", "endColumn", "ruleId", "fix", "message", "fingerprint", "replacement"]
                        .map { "\(finding[$0] ?? "")" }.joined(separator: "|")
                }
            }
            let lf = try findings(source.path)
            XCTAssertFalse(lf.isEmpty, fixture)
            XCTAssertEqual(try findings(tree.path), lf, fixture)
        }
    }
}
