import AuditModel
import AuditReport
import AuditRules
import AuditScan
import AuditSelect
import Foundation
import LoadAuditTestSupport
import TreeSitter
import XCTest

/// Speed features must never change a result: the prefilter, the number of workers and the cache
/// are all checked against the plain full scan, report byte for byte.
final class PrefilterAndCacheTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func report(_ path: String, prefilter: Bool = true, jobs: Int = 2, cache: ResultCache? = nil) throws -> String {
        let scanner = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(currentDirectory: path),
                                     jobs: jobs, prefilter: prefilter, cache: cache)
        return JSONReport.render(try scanner.scan([path]), toolVersion: "test")
    }

    /// A deterministic tree of SwiftUI-like files, a few of which use deprecated indicators.
    func generatedTree() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("generated-\(UUID().uuidString)")
        for index in 0..<120 {
            let folder = root.appendingPathComponent("Feature\(index % 9)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var body = "import SwiftUI\n\nstruct Screen\(index): View {\n    @State private var items: [String] = []\n    var body: some View {\n        List(items, id: \\.self) { Text($0) }\n"
            switch index % 20 {
            case 3: body += "            .overlay { ProgressView().controlSize(.small) }\n"
            case 7: body += "            .overlay { ThemedSpinner(size: 20) }\n"
            case 11: body += "            .overlay { LoadingSpinner(size: .small, label: \"Hang tight!\") }\n"
            case 13: body += "            // loadaudit:ignore loading-dots\n            .overlay { LoadingDots() }\n"
            default: break
            }
            body += "    }\n}\n"
            if index == 17 { body += "let tips\(index) = [\"One\", \"Two\"]\n" }
            if index == 18 { body += "struct Tip: View { @State var tipIndex = 0\n var body: some View { Text(tips17[tipIndex]).onAppear { Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { _ in tipIndex += 1 } } } }\n" }
            try body.write(to: folder.appendingPathComponent("Screen\(index).swift"), atomically: true, encoding: .utf8)
        }
        return root
    }

    func testThePrefilterAndTheWorkersNeverChangeTheReport() throws {
        let generated = try generatedTree()
        defer { try? FileManager.default.removeItem(at: generated) }
        for path in [Self.repository.appendingPathComponent("fixtures/ExampleApp").path,
                     Self.repository.appendingPathComponent("fixtures/RotatingMessages").path, generated.path] {
            let plain = try report(path, prefilter: false, jobs: 1)
            XCTAssertEqual(try report(path, prefilter: true, jobs: 1), plain, path)
            XCTAssertEqual(try report(path, prefilter: true, jobs: 2), plain, path)
            XCTAssertEqual(try report(path, prefilter: false, jobs: 3), plain, path)
        }
        XCTAssertTrue(try report(generated.path).contains("rotating-loading-message"), "the generated tree spreads a rotation over two files")
    }

    /// Pattern rules (the built-in SwiftUI deprecations) are selected by what they declare: the
    /// prefilter changes nothing on their example app nor on the loading example app.
    func testThePrefilterNeverChangesAPatternRulesReport() throws {
        let ruleSet = try XCTUnwrap(try RuleSet.builtIn(named: "swiftui-deprecations"))
        for folder in ["fixtures/SwiftUIDeprecations", "fixtures/ExampleApp"] {
            let path = Self.repository.appendingPathComponent(folder).path
            func scan(_ prefilter: Bool) throws -> String {
                let scanner = ProjectScanner(engine: RuleEngine(ruleSet: ruleSet), discovery: SourceDiscovery(currentDirectory: path), jobs: 2, prefilter: prefilter)
                return JSONReport.render(try scanner.scan([path]), toolVersion: "test")
            }
            XCTAssertEqual(try scan(true), try scan(false), folder)
        }
    }

    /// Projects where the parts of rotating messages (string arrays, text enums, clocks, displays)
    /// and look-alikes are dealt out over files at random: following names across files must find
    /// exactly what parsing every file finds.
    func testFollowingRotationsAcrossFilesNeverChangesTheReport() throws {
        var kinds: [String: Int] = [:]
        for seed in 1...24 {
            let tree = try rotationProject(seed: UInt64(seed))
            defer { try? FileManager.default.removeItem(at: tree) }
            let plain = try report(tree.path, prefilter: false, jobs: 1)
            let scanner = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(currentDirectory: tree.path), prefilter: false)
            for finding in try scanner.scan([tree.path]).findings where finding.ruleId == "rotating-loading-message" {
                let kind = finding.message.contains("] changes with") ? "array[index]" : finding.message.contains(" takes strings of ") ? "value" : "phase"
                kinds[kind, default: 0] += 1
            }
            XCTAssertEqual(try report(tree.path), plain, "seed \(seed)")
            XCTAssertEqual(try report(tree.path, jobs: 1), plain, "seed \(seed), one worker")
        }
        for kind in ["array[index]", "value", "phase"] {
            XCTAssertGreaterThan(kinds[kind] ?? 0, 2, "the projects hold rotations of the kind \(kind): \(kinds)")
        }
    }

    /// A new temporary folder with `files` (name: text); the caller removes it.
    func project(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("project-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return root
    }

    /// An enum whose computed `property` switches to a string for each case.
    func textEnum(_ name: String, cases: [String], property: String) -> String {
        "enum \(name) {\n    case \(cases.joined(separator: ", "))\n    var \(property): String {\n        switch self {\n"
            + cases.map { "        case .\($0): return \"\($0.capitalized) for now\"\n" }.joined() + "        }\n    }\n}\n"
    }

    /// A class whose timer sets its `state` (starting at `from`) to `to`.
    func timedClass(_ name: String, state: String, from: String, to: String) -> String {
        """
        import Foundation

        final class \(name) {
            var \(state) = \(from)
            func start() {
                Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { _ in
                    self.\(state) = \(to)
                }
            }
        }

        """
    }

    /// Scans `root` with the trace on: the result, and the display paths of the files it parsed.
    func scanTracingParses(_ root: URL) throws -> (result: ScanResult, parsed: Set<String>) {
        final class Parsed: @unchecked Sendable {
            private let lock = NSLock()
            private var paths = Set<String>()
            func add(_ line: String) {
                guard line.hasPrefix("parsed"), let path = line.components(separatedBy: " bytes: ").last else { return }
                lock.withLock { _ = paths.insert(path) }
            }
            var all: Set<String> { lock.withLock { paths } }
        }
        let parsed = Parsed()
        var scanner = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(currentDirectory: root.path))
        scanner.trace = { parsed.add($0) }
        let result = try scanner.scan([root.path])
        return (result, parsed.all)
    }

    /// A file that names the display call only in a comment (`Text(tips[index])` in a doc comment)
    /// holds no display: the rounds do not parse it for one. The file that shows the tips is parsed.
    func testADisplayCallNamedOnlyInACommentDoesNotMakeAFileParsed() throws {
        let files = [
            "Tips.swift": "let tips = [\"Warming up the oven\", \"Almost there\"]\n",
            "Docs.swift": "/// The screen shows `Text(tips[index])`, one tip at a time.\nfunc tip(_ tips: [String], index: Int) -> String {\n    tips[index]\n}\n",
            "Shown.swift": "import SwiftUI\n\nstruct TipView: View {\n    let index: Int\n    var body: some View {\n        Text(tips[index])\n    }\n}\n",
        ]
        let root = try project(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let parsed = try scanTracingParses(root).parsed
        XCTAssertTrue(parsed.contains("Shown.swift"), "\(parsed)")
        XCTAssertFalse(parsed.contains("Docs.swift"), "\(parsed)")
        XCTAssertEqual(try report(root.path), try report(root.path, prefilter: false, jobs: 1))
    }

    /// A file that subscripts an array and calls `Text`, but never shows the element as the call's
    /// argument (`Text(title)`, `let first = tips[0]`), holds no display of it: the first round leaves
    /// it alone. The file that shows the tips is parsed, and the report is what parsing every file gives.
    func testASubscriptOutsideADisplayDoesNotMakeAFileParsed() throws {
        let files = [
            "Tips.swift": "let tips = [\"Warming up the oven\", \"Almost there\"]\n",
            "Rows.swift": "import SwiftUI\n\nstruct Row: View {\n    let title: String\n    var body: some View {\n        Text(title)\n            .help(tips[0])\n    }\n}\n",
            "Shown.swift": "import SwiftUI\n\nstruct TipView: View {\n    @State private var index = 0\n    var body: some View {\n        Text(tips[index])\n            .task {\n                while true {\n                    try? await Task.sleep(for: .seconds(2))\n                    index += 1\n                }\n            }\n    }\n}\n",
        ]
        try checkParses(files, parsed: "Shown.swift", unparsed: "Rows.swift", reportHolds: "rotating-loading-message")
    }

    /// `randomElement()` of something that is no string array (`players.randomElement()`) shows no
    /// rotating text: the file is left alone. A display of a string array's random element is parsed
    /// in the first round and found.
    func testARandomElementOfNoStringArrayDoesNotMakeAFileParsed() throws {
        let files = [
            "Tips.swift": "let tips = [\"Warming up the oven\", \"Almost there\"]\n",
            "Lineup.swift": "import SwiftUI\n\nstruct Lineup: View {\n    let players: [Player]\n    var body: some View {\n        Text(players.randomElement()?.name ?? \"\")\n    }\n}\n",
            "TipView.swift": "import SwiftUI\n\nstruct TipView: View {\n    var body: some View {\n        Text(tips.randomElement() ?? \"\")\n    }\n}\n",
        ]
        try checkParses(files, parsed: "TipView.swift", unparsed: "Lineup.swift", reportHolds: "a random element of tips")
    }

    /// A view whose only `ProgressView` shows determinate progress (an upload's fraction, drawn as a
    /// bar) has nothing to report and is not parsed; the same progress drawn by a spinning style is a
    /// custom indicator, found.
    func testDeterminateProgressAloneDoesNotMakeAFileParsed() throws {
        let files = [
            "UploadRow.swift": """
                import SwiftUI

                struct UploadRow: View {
                    @ObservedObject var upload: UploadTask
                    var body: some View {
                        VStack(alignment: .leading) {
                            Text(upload.fileName)
                            ProgressView(value: upload.sentBytes, total: upload.totalBytes)
                                .progressViewStyle(.linear)
                                .tint(.orange)
                        }
                    }
                }

                """,
            "TicketSyncBadge.swift": """
                import SwiftUI

                struct TicketSyncBadge: View {
                    let fraction: Double
                    var body: some View {
                        ProgressView(value: fraction)
                            .progressViewStyle(ThemedSpinnerStyle())
                    }
                }

                """,
        ]
        try checkParses(files, parsed: "TicketSyncBadge.swift", unparsed: "UploadRow.swift", reportHolds: "determinate progress drawn by the custom style")
    }

    /// Scans the project of `files`: `parsed` must be parsed and `unparsed` not, and the report must
    /// hold `expected` and be what parsing every file gives.
    func checkParses(_ files: [String: String], parsed wanted: String, unparsed: String, reportHolds expected: String,
                     line: UInt = #line) throws {
        let root = try project(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let parsed = try scanTracingParses(root).parsed
        XCTAssertTrue(parsed.contains(wanted), "\(parsed)", line: line)
        XCTAssertFalse(parsed.contains(unparsed), "\(parsed)", line: line)
        let full = try report(root.path, prefilter: false, jobs: 1)
        XCTAssertTrue(full.contains(expected), full, line: line)
        XCTAssertEqual(try report(root.path), full, line: line)
    }

    /// A clock that reads a display's index (`lastLogged = index`) but assigns to another name cannot
    /// advance the display: its file is left alone, while the clock that assigns `index` counts.
    func testAClockThatOnlyReadsAnIndexDoesNotMakeItsFileParsed() throws {
        let files = [
            "Tips.swift": "let tips = [\"Warming up the oven\", \"Almost there\"]\n",
            "TipView.swift": "import SwiftUI\n\nstruct TipView: View {\n    @ObservedObject var model: TipModel\n    var body: some View {\n        Text(tips[model.index])\n    }\n}\n",
            "TipModel.swift": "import Foundation\n\nfinal class TipModel: ObservableObject {\n    @Published var index = 0\n    func start() {\n        Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { [weak self] _ in\n            guard let self else { return }\n            self.index = (self.index + 1) % tips.count\n        }\n    }\n}\n",
            "Logger.swift": "import Foundation\n\nfinal class Logger {\n    var lastLogged = 0\n    func follow(_ model: TipModel) {\n        DispatchQueue.main.asyncAfter(deadline: .now() + 5) {\n            self.lastLogged = model.index\n        }\n    }\n}\n",
        ]
        try checkParses(files, parsed: "TipModel.swift", unparsed: "Logger.swift", reportHolds: "rotating-loading-message")
    }

    /// The same for a state's text property (`phase.message`): a file that reads it but names `Text`
    /// only in a comment shows nothing, nor does a view that calls `Text` and reads `phase.message`
    /// elsewhere (`.help(oven.phase.message)`, not a display's argument), so neither the clock that
    /// switches `phase` nor the enum is parsed until a `Text(oven.phase.message)` appears.
    func testATextPropertyReadOutsideADisplayDoesNotMakeTheClockParsed() throws {
        let files = [
            "Phase.swift": """
                enum Phase {
                    case warming, done
                    var message: String {
                        switch self {
                        case .warming: return "Warming up the oven"
                        case .done: return "Almost there"
                        }
                    }
                }
                """,
            "Clock.swift": timedClass("Oven", state: "phase", from: "Phase.warming", to: ".done"),
            "Log.swift": "/// Screens show `Text(phase.message)`; this only logs it.\nfunc log(_ phase: Phase) {\n    print(phase.message)\n}\n",
            "Badge.swift": "import SwiftUI\n\nstruct Badge: View {\n    let oven: Oven\n    var body: some View {\n        Text(\"Oven\")\n            .help(oven.phase.message)\n    }\n}\n",
        ]
        let root = try project(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let parsed = try scanTracingParses(root).parsed
        XCTAssertFalse(parsed.contains("Clock.swift"), "\(parsed)")
        XCTAssertFalse(parsed.contains("Phase.swift"), "\(parsed)")
        XCTAssertEqual(try report(root.path), try report(root.path, prefilter: false, jobs: 1))
        // With a display that reads it, the enum, the clock and the display make a finding.
        try "import SwiftUI\n\nstruct OvenView: View {\n    let oven: Oven\n    var body: some View { Text(oven.phase.message) }\n}\n"
            .write(to: root.appendingPathComponent("OvenView.swift"), atomically: true, encoding: .utf8)
        let shown = try report(root.path)
        XCTAssertTrue(shown.contains("rotating-loading-message"), shown)
        XCTAssertEqual(shown, try report(root.path, prefilter: false, jobs: 1))
    }

    /// A display of `phase.title` matters only if an enum with a case some clock gives `phase` has the
    /// text property `title`: another enum's `title` (of `mood`) does not make it parsed.
    func testADisplayReadsTheTextPropertyOfTheEnumWhoseCaseItsStateTakes() throws {
        let files = [
            "Phase.swift": textEnum("Phase", cases: ["warming", "done"], property: "message"),
            "Mood.swift": textEnum("Mood", cases: ["calm", "angry"], property: "title"),
            "Oven.swift": """
                import Foundation

                final class Oven {
                    var phase = Phase.warming
                    var mood = Mood.calm
                    func start() {
                        Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { _ in
                            self.phase = .done
                            self.mood = .angry
                        }
                    }
                }
                """,
            "PhaseView.swift": "import SwiftUI\n\nstruct PhaseView: View {\n    let oven: Oven\n    var body: some View { Text(oven.phase.message) }\n}\n",
            "MoodView.swift": "import SwiftUI\n\nstruct MoodView: View {\n    let oven: Oven\n    var body: some View { Text(oven.mood.title) }\n}\n",
            "MixedView.swift": "import SwiftUI\n\nstruct MixedView: View {\n    let oven: Oven\n    var body: some View { Text(oven.phase.title) }\n}\n",
        ]
        let root = try project(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let (result, parsed) = try scanTracingParses(root)
        for name in ["Phase", "Mood", "Oven", "PhaseView", "MoodView"] {
            XCTAssertTrue(parsed.contains("\(name).swift"), "\(name): \(parsed)")
        }
        XCTAssertFalse(parsed.contains("MixedView.swift"), "\(parsed)")
        XCTAssertEqual(Set(result.findings.filter { $0.ruleId == "rotating-loading-message" }.map(\.file)), ["PhaseView.swift", "MoodView.swift"])
        XCTAssertEqual(try report(root.path), try report(root.path, prefilter: false, jobs: 1))
    }

    /// A file whose only asked words are `enum` and `switch` gets its name index after the first pass,
    /// and only if it may declare a case some clock assigns: `Phase` (the clock sets `.fetching`) is
    /// indexed, followed and parsed; `Tab`, whose cases no clock assigns, is never lexed.
    func testATextEnumIsSignedOnlyWhenAClockMayAssignOneOfItsCases() throws {
        let files = [
            "Phase.swift": textEnum("Phase", cases: ["idle", "fetching"], property: "message"),
            "Tab.swift": textEnum("Tab", cases: ["home", "search"], property: "message"),
            "Loader.swift": timedClass("Loader", state: "phase", from: "Phase.idle", to: ".fetching"),
            "LoaderView.swift": "import SwiftUI\n\nstruct LoaderView: View {\n    let loader: Loader\n    var body: some View { Text(loader.phase.message) }\n}\n",
        ]
        let root = try project(files)
        defer { try? FileManager.default.removeItem(at: root) }
        final class Lines: @unchecked Sendable {
            private let lock = NSLock()
            private var lines: [String] = []
            func add(_ line: String) { lock.withLock { lines.append(line) } }
            var all: [String] { lock.withLock { lines } }
        }
        let lines = Lines()
        var scanner = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(currentDirectory: root.path))
        scanner.trace = { lines.add($0) }
        let result = try scanner.scan([root.path])
        XCTAssertTrue(lines.all.contains("2 files with only enum and switch deferred by the word screen, 1 indexed now"), "\(lines.all)")
        let parsed = lines.all.filter { $0.hasPrefix("parsed") }
        XCTAssertTrue(parsed.contains { $0.hasSuffix(" bytes: Phase.swift") }, "\(parsed)")
        XCTAssertFalse(parsed.contains { $0.hasSuffix(" bytes: Tab.swift") }, "\(parsed)")
        XCTAssertEqual(result.findings.filter { $0.ruleId == "rotating-loading-message" }.map(\.file), ["LoaderView.swift"])
        XCTAssertEqual(try report(root.path), try report(root.path, prefilter: false, jobs: 1))
    }

    /// The lexer behind the prefilter must never deny a name or a rotation fact that the parser
    /// finds, and a file it does not parse on sight must hold nothing a parse would report on its own
    /// (no candidate, suppression or re-export; rotating text is the rounds' business): checked on
    /// every fixture, every input the fuzzer once failed on (fuzz/regressions), and every file of the
    /// generated rotation projects.
    func testSignaturesNeverDenyWhatTheParserFinds() throws {
        let (files, trees) = try checkedFiles()
        defer { for tree in trees { try? FileManager.default.removeItem(at: tree) } }
        let engine = RuleEngine(ruleSet: .builtIn())
        let parser = try Parser()
        var checked = 0, unparsed = 0, screenedOut = 0
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            let nameIndex = FileNameIndex(bytes: bytes, clocks: .builtIn)
            if try Self.checkGlance(engine, bytes, parser, file.path) { screenedOut += 1 }
            guard nameIndex.firstInvalidUTF8Offset == nil else { continue }
            let tree = try parser.parse(SourceText(bytes: bytes))
            let analysis = engine.analyze(tree: tree, file: file.lastPathComponent)
            XCTAssertEqual(nameIndex.factsMissed(tree: tree, facts: analysis.rotation), [], file.path)
            if !FileSelector(engine).isRelevantOnSight(nameIndex, bytes: bytes) {
                XCTAssertEqual(Self.reportable(analysis), [], file.path)
                unparsed += 1
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 60)
        XCTAssertGreaterThan(unparsed, 20)
        XCTAssertGreaterThan(screenedOut, 5)
    }

    /// A file the engine calls irrelevant by the word screen (the scanner takes no name index, no round
    /// follows it) must be plain text whose parse holds nothing to report and no rotation fact: no
    /// string array, text property, timed assignment or display. Whether it was.
    static func checkGlance(_ engine: RuleEngine, _ bytes: [UInt8], _ parser: Parser, _ path: String) throws -> Bool {
        guard FileSelector(engine).isIrrelevantByItsWords(bytes) else { return false }
        let nameIndex = FileNameIndex(bytes: bytes, clocks: .builtIn)
        XCTAssertNil(nameIndex.firstInvalidUTF8Offset, path)
        XCTAssertNil(nameIndex.firstNULOffset, path)
        guard nameIndex.firstInvalidUTF8Offset == nil else { return true }
        let analysis = engine.analyze(tree: try parser.parse(SourceText(bytes: bytes)), file: path)
        XCTAssertEqual(reportable(analysis), [], path)
        let rotation = try XCTUnwrap(analysis.rotation, path)
        XCTAssertEqual(rotation.stringArrays.count + rotation.textProperties.count + rotation.timedAssignments.count + rotation.displays.count, 0, path)
        return true
    }

    /// What a file's analysis reports without the rounds: its candidates' rules, suppressions, re-exports.
    static func reportable(_ analysis: FileAnalysis) -> [String] {
        analysis.candidates.map(\.finding.ruleId) + analysis.suppressions.map { "suppression at line \($0.line)" }
            + analysis.exportedImports.map { "@_exported \($0)" }
    }

    /// Every fixture, every input the fuzzer once failed on, and every file of eight generated
    /// rotation projects (in folders the caller removes).
    func checkedFiles() throws -> (files: [URL], trees: [URL]) {
        var files: [URL] = []
        for folder in ["fixtures", "fuzz/regressions"] {
            files += try FileManager.default.subpathsOfDirectory(atPath: Self.repository.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(".swift") }.map { Self.repository.appendingPathComponent("\(folder)/\($0)") }
        }
        var trees: [URL] = []
        for seed in 1...8 {
            let tree = try rotationProject(seed: UInt64(seed))
            trees.append(tree)
            files += try FileManager.default.contentsOfDirectory(at: tree, includingPropertiesForKeys: nil)
        }
        return (files, trees)
    }

    /// The engine's walks skip subtrees that hold none of the words they act on: a file's analysis
    /// (candidates, suppressions, rotation facts) must be what walking the whole tree gives.
    func testWalksThatSkipUnmarkedSubtreesFindWhatWholeWalksFind() throws {
        let (files, trees) = try checkedFiles()
        defer { for tree in trees { try? FileManager.default.removeItem(at: tree) } }
        let skipping = RuleEngine(ruleSet: .builtIn()), whole = RuleEngine(ruleSet: .builtIn(), skipsUnmarkedSubtrees: false)
        let parser = try Parser()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Suppressions deep inside declarations, which no fixture has.
        let suppressed = """
            import SwiftUI

            // loadaudit:ignore-file loading-dots
            struct Screen: View {
                var body: some View {
                    VStack {
                        // loadaudit:ignore raw-progress-view - shown for a moment only
                        ProgressView()
                        if true {
                            Text("Saving") // loadaudit:ignore loading-label-style
                        }
                    }
                }
            }
            """
        var sources = [(name: "Suppressed.swift", bytes: Array(suppressed.utf8))]
        for file in files { sources.append((file.path, [UInt8](try Data(contentsOf: file)))) }
        var candidates = 0, suppressions = 0, rotationFacts = 0
        for (name, bytes) in sources {
            let nameIndex = FileNameIndex(bytes: bytes, clocks: .builtIn)
            guard nameIndex.firstInvalidUTF8Offset == nil else { continue }
            let tree = try parser.parse(SourceText(bytes: bytes))
            let skipped = skipping.analyze(tree: tree, file: name, hints: FileSelector(skipping).hints(for: nameIndex))
            let walked = whole.analyze(tree: tree, file: name, hints: FileSelector(whole).hints(for: nameIndex))
            XCTAssertEqual(skipped.candidates.map(\.finding), walked.candidates.map(\.finding), name)
            XCTAssertEqual(skipped.candidates.map { $0.moduleCheck?.module }, walked.candidates.map { $0.moduleCheck?.module }, name)
            XCTAssertEqual(skipped.candidates.map { $0.moduleCheck?.fileImports }, walked.candidates.map { $0.moduleCheck?.fileImports }, name)
            XCTAssertEqual(skipped.suppressions, walked.suppressions, name)
            XCTAssertEqual(try encoder.encode(skipped.rotation), try encoder.encode(walked.rotation), name)
            candidates += walked.candidates.count
            suppressions += walked.suppressions.count
            rotationFacts += walked.rotation.map { $0.stringArrays.count + $0.textProperties.count + $0.timedAssignments.count + $0.displays.count } ?? 0
        }
        // The files hold something of each kind to find.
        XCTAssertGreaterThan(candidates, 100)
        XCTAssertEqual(suppressions, 3)
        XCTAssertGreaterThan(rotationFacts, 50)
    }

    /// The same check on any tree: `LOADAUDIT_SIGNATURE_TREE=~/src/SomeApp swift test --filter
    /// PrefilterAndCacheTests/testSignaturesOfATreeGiven` (skipped without it).
    func testSignaturesOfATreeGiven() throws {
        guard let root = ProcessInfo.processInfo.environment["LOADAUDIT_SIGNATURE_TREE"] else {
            throw XCTSkip("set LOADAUDIT_SIGNATURE_TREE to a folder of Swift files to check their nameIndexes")
        }
        let engine = RuleEngine(ruleSet: .builtIn())
        let parser = try Parser()
        var checked = 0, screenedOut = 0
        for path in try FileManager.default.subpathsOfDirectory(atPath: root) where path.hasSuffix(".swift") {
            guard let data = FileManager.default.contents(atPath: root + "/" + path) else { continue }
            let bytes = [UInt8](data)
            let nameIndex = FileNameIndex(bytes: bytes, clocks: .builtIn)
            if try Self.checkGlance(engine, bytes, parser, path) { screenedOut += 1 }
            guard nameIndex.firstInvalidUTF8Offset == nil, (nameIndex.firstNULOffset ?? .max) >= 8192 else { continue }
            let tree = try parser.parse(SourceText(bytes: bytes))
            let analysis = engine.analyze(tree: tree, file: path)
            XCTAssertEqual(nameIndex.factsMissed(tree: tree, facts: analysis.rotation), [], path)
            if !FileSelector(engine).isRelevantOnSight(nameIndex, bytes: bytes) { XCTAssertEqual(Self.reportable(analysis), [], path) }
            checked += 1
        }
        print("checked the nameIndexes of \(checked) files under \(root), \(screenedOut) of them irrelevant by the word screen")
    }

    func rotationProject(seed: UInt64) throws -> URL {
        var random = SeededRandom(seed: seed)
        let arrays = ["tips", "quips", "hints"], states = ["index", "phase", "line", "step"], properties = ["message", "caption"]
        let cases = ["warming", "fetching", "done"]
        // Most pieces use the project's own names, so that they connect; the rest cross-talk.
        let theme = (array: random.pick(arrays), state: random.pick(states), property: random.pick(properties))
        func pick(_ names: [String], _ preferred: String) -> String { random.chance(75) ? preferred : random.pick(names) }
        var pieces: [String] = []
        for _ in 0..<(6 + random.below(10)) {
            let array = pick(arrays, theme.array), state = pick(states, theme.state), property = pick(properties, theme.property)
            let first = pick(cases, "warming"), second = pick(cases, "fetching")
            switch random.below(10) {
            case 0: pieces.append("enum Copy\(pieces.count) {\n" + random.pick([
                "    static let \(array) = [\"Warming up…\", \"Almost there…\"]\n",
                "    static let \(array): [String] = [\n        \"Warming up…\",\n        \"Almost there…\",\n    ]\n",
                "    static var \(array) = [ // the copy\n        \"Warming up…\", \"Almost there…\"]\n",
                "    static let \(array) = /* was: let old */ [\"Warming up…\", \"Almost there…\"]\n",
            ]) + "}\n")
            case 1: pieces.append("""
                enum Phase\(pieces.count) {
                    \(random.pick(["case \(first), \(second)", "case \(first)\n    case \(second)", "case \(first), // the first\n         \(second)",
                                    "case \(first)(progress: Double), \(second)", "case \(first) = 1, \(second) = 2"]))
                    var \(property): String {
                        switch self {
                        case .\(first): return "Warming up…"
                        case .\(second): return "Almost there…"
                        }
                    }
                }

                """)
            case 2: pieces.append("""
                final class Ticker\(pieces.count): ObservableObject {
                    @Published var \(state) = 0
                    func start() {
                        Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { _ in \(random.pick(["self.\(state) += 1", "self.\(state) = (self.\(state) + 1) % 2", "self.\(state)\n                += 1"])) }
                    }
                }

                """)
            case 3: pieces.append("""
                final class Phaser\(pieces.count): ObservableObject {
                    @Published var \(state) = Phase.\(first)
                    func start() {
                        DispatchQueue.main.asyncAfter(deadline: .now() + 2) { \(random.pick(["self.\(state) = .\(second)", "self.\(state) =\n                .\(second)", "\(state) = Phase.\(second)"])) }
                    }
                }

                """)
            case 4: pieces.append("""
                final class Liner\(pieces.count): ObservableObject {
                    @Published var \(state) = ""
                    func start() async throws {
                        while true {
                            try await Task.sleep(for: .seconds(2))
                            \(state) = \(random.pick(["Copy.\(array)[Int.random(in: 0..<3)]", "(Copy.\(array))[step % 2]"]))
                        }
                    }
                }

                """)
            case 5: pieces.append("struct Show\(pieces.count): View {\n    @ObservedObject var model: Ticker\n    var body: some View { Text(Copy.\(random.pick(["\(array)[", "\(array) [", "\(array)?[", "\(array)\n            ["]))\(random.pick([" model.\(state)]", "(model.\(state) + 1) % Copy.\(array).count]", "\"]\".count * model.\(state)]", "model /* ] */ .\(state)]"]))) }\n}\n")
            case 6: pieces.append("struct Show\(pieces.count): View {\n    @ObservedObject var model: Phaser\n    var body: some View { Text(model.\(state)\(random.pick([".", "\n            .", "?.", " . "]))\(property)) }\n}\n")
            case 7: pieces.append("struct Show\(pieces.count): View {\n    @ObservedObject var model: Liner\n    var body: some View { Text(model.\(state)) }\n}\n")
            case 8: pieces.append("""
                final class Refresher\(pieces.count) {
                    var \(array) = 3
                    var isLoading = false
                    func start() { Timer.scheduledTimer(withTimeInterval: 60, repeats: true) { _ in self.isLoading = false } }
                }

                """)
            default: pieces.append("""
                enum Kind\(pieces.count) {
                    case \(first), \(second)
                    var \(property): Int { switch self { case .\(first): 1
                    case .\(second): 2 } }
                }
                struct Label\(pieces.count): View { var body: some View { Text(\"\(state)\") } }

                """)
            }
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rotations-\(seed)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // Mostly one piece a file, so that each part must be found by following names; some share.
        let fileCount = pieces.count
        var contents = [String](repeating: "import SwiftUI\n\n", count: fileCount)
        for (index, piece) in pieces.enumerated() { contents[random.chance(80) ? index : random.below(fileCount)] += piece }
        for (index, text) in contents.enumerated() {
            try text.write(to: root.appendingPathComponent("File\(index).swift"), atomically: true, encoding: .utf8)
        }
        return root
    }

    func testTheCacheGivesTheSameReportAndNoticesChangedFiles() throws {
        let tree = try generatedTree()
        let cacheFolder = tree.appendingPathComponent(".cache").path
        defer { try? FileManager.default.removeItem(at: tree) }
        let plain = try report(tree.path)
        let cache = try ResultCache(folder: cacheFolder, rulesKey: "rules-1")
        XCTAssertEqual(try report(tree.path, cache: cache), plain, "cold")
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: cacheFolder).isEmpty)
        XCTAssertEqual(try report(tree.path, cache: cache), plain, "warm")

        let changed = tree.appendingPathComponent("Feature3/Screen3.swift")
        try "import SwiftUI\nlet dots = LoadingDots()\n".write(to: changed, atomically: true, encoding: .utf8)
        XCTAssertEqual(try report(tree.path, cache: cache), try report(tree.path), "after a change")
    }

    func testCorruptOrForeignCacheFilesAreIgnored() throws {
        let tree = try generatedTree()
        let cacheFolder = tree.appendingPathComponent(".cache").path
        defer { try? FileManager.default.removeItem(at: tree) }
        let plain = try report(tree.path)
        let cache = try ResultCache(folder: cacheFolder, rulesKey: "rules-1")
        _ = try report(tree.path, cache: cache)
        for (index, name) in try FileManager.default.contentsOfDirectory(atPath: cacheFolder).enumerated() {
            let file = URL(fileURLWithPath: cacheFolder).appendingPathComponent(name)
            switch index % 3 {
            case 0: try Data("{not json".utf8).write(to: file)
            case 1: try Data().write(to: file)
            default: try Data("{\"format\": 99}".utf8).write(to: file)
            }
        }
        XCTAssertEqual(try report(tree.path, cache: cache), plain)
        // Other rules: nothing of the old cache may be trusted.
        let other = try ResultCache(folder: cacheFolder, rulesKey: "rules-2")
        XCTAssertEqual(try report(tree.path, cache: other), plain)
    }

    func testTheSignatureKnowsWholeIdentifiersOnly() {
        let nameIndex = FileNameIndex(bytes: Array("let tooltips = 1; let tip = `default`[i] // loadaudit:ignore".utf8), clocks: .builtIn)
        for word in ["tooltips", "tip", "i", "default", "`default`", "loadaudit:", "loadaudit"] {
            XCTAssertTrue(nameIndex.mentions(word), word)
        }
        // A Bloom filter may say yes wrongly, but these few words in a 512-bit filter do not collide.
        for word in ["tips", "tool", "tooltip", "defaults", "", ":"] {
            XCTAssertFalse(nameIndex.mentions(word), word)
        }
    }

    func testTheSignatureKnowsSubscriptedNamesAndDeclaredCases() {
        let text = """
            enum Phase { case warming, // first
                fetching
                case done(Int) }
            switch phase { case .idle: break }
            let a = tips[0] + hints ?[1] + (quips)[2] + notes
                [3]
            call(x)
            """
        let nameIndex = FileNameIndex(bytes: Array(text.utf8), clocks: .builtIn)
        for name in ["warming", "fetching", "done"] { XCTAssertTrue(nameIndex.declaresCaseAny([name]), name) }
        XCTAssertFalse(nameIndex.declaresCaseAny(["idle"]), "a switch's `case .idle` declares nothing")
        // A parser reads `0case` as a number and the keyword: the lexer takes the word after the digits too.
        XCTAssertTrue(FileNameIndex(bytes: Array("enum Phase {\n    0case warming\n}".utf8), clocks: .builtIn).declaresCaseAny(["warming"]))
        XCTAssertTrue(FileNameIndex(bytes: Array("let x = 3tips".utf8), clocks: .builtIn).mentions("tips"))
        XCTAssertFalse(nameIndex.declaresCaseAny(["tips"]))
        for name in ["tips", "hints", "quips", "notes"] { XCTAssertTrue(nameIndex.subscriptsAny([name]), name) }
        for name in ["x", "a", "phase", "call"] { XCTAssertFalse(nameIndex.subscriptsAny([name]), name) }
        // Backticks around the base or the member: the parser's names have them, the pair is the same.
        let escaped = FileNameIndex(bytes: Array("Text(`phase`.message); Text(state.`default`); Text(`tips`[index])".utf8), clocks: .builtIn)
        XCTAssertTrue(escaped.accesses("message", of: "phase"))
        XCTAssertTrue(escaped.accesses("default", of: "state"))
        XCTAssertTrue(escaped.subscriptsAny(["tips"]))
        XCTAssertTrue(escaped.subscripts(WordHash.ofName("tips"), with: WordHash.ofName("index")))
        XCTAssertFalse(FileNameIndex(bytes: Array("switch mode { case .`default`: break }".utf8), clocks: .builtIn).declaresCaseAny(["default"]))
    }

    /// The declared cases are kept exactly: a long `switch` that binds a name in each of its cases
    /// (`case .row(let row0):`, all read as a case list) must not make the file seem to declare
    /// every case a clock assigns. (A 2,048-bit Bloom filter with two bits per name, as before, was
    /// nearly full with these 2,000 names and answered "yes" to most of the names asked below.)
    func testDeclaredCasesAreExactEvenInALongSwitch() {
        let cases = (0..<2000).map { "    case .row\($0)(let value\($0)): return value\($0)" }.joined(separator: "\n")
        let text = "enum Phase { case warming, fetching }\nfunc pick(_ row: Row) -> Int {\n    switch row {\n\(cases)\n    }\n}\n"
        let nameIndex = FileNameIndex(bytes: Array(text.utf8), clocks: .builtIn)
        XCTAssertTrue(nameIndex.declaresCaseAny(["warming"]))
        XCTAssertTrue(nameIndex.declaresCaseAny(["value1999"]), "a name bound in a case pattern counts, as the lexer reads it")
        let absent = (0..<50).map { "idle\($0)" } + ["loading", "done", "failed", "retrying", "paused"]
        for name in absent { XCTAssertFalse(nameIndex.declaresCaseAny([name]), name) }
        XCTAssertFalse(nameIndex.declaresCaseAny(["row7"]), "after a dot: a case matched, not declared")
        XCTAssertTrue(nameIndex.declaresCaseAny(["warming.fetching"]), "every part of a dotted word")
        XCTAssertFalse(nameIndex.declaresCaseAny(["warming.idle"]))
    }

    /// A comment between a name and what follows hides what follows: the name pairs with any name,
    /// and only that name does (kept exactly: a false "yes" would pair a name with everything).
    func testACommentAfterANameLeavesItsMemberOrSubscriptOpen() {
        let commented = FileNameIndex(bytes: Array("""
            Text(phase // the current one
                .message)
            Text(state./* which */ title)
            Text(tips /* of the day */ [index])
            let options = ViewState(state: .adding)
            """.utf8), clocks: .builtIn)
        XCTAssertTrue(commented.accesses("message", of: "phase"))
        XCTAssertTrue(commented.accesses("title", of: "state"))
        XCTAssertTrue(commented.accesses("anything", of: "state"), "the comment after the dot may hide any member")
        XCTAssertTrue(commented.subscriptsAny(["tips"]))
        XCTAssertTrue(commented.subscripts(WordHash.ofName("tips"), with: WordHash.ofName("index")))
        let plain = FileNameIndex(bytes: Array("let options = ViewState(state: .adding, mode: .full)\nText(phase.message)\n".utf8), clocks: .builtIn)
        for member in ["message", "title", "errorDescription", "name", "id", "description", "rawValue"] {
            XCTAssertFalse(plain.accesses(member, of: "state"), "`state:` is a label: nothing follows it with a dot")
        }
        XCTAssertFalse(plain.accesses("title", of: "phase"))
    }

    /// A display shows an array's element only as its whole first argument (`Text(tips[i])`,
    /// `Text(model.tips[i])`): the lexer pairs the call with the names subscripted where its argument
    /// list starts, and says "may be" for any call where a comment, a directive or a string stands
    /// in the way of walking back to the start. Each case is checked against the parser too.
    func testTheSignatureKnowsWhichArraysACallsFirstArgumentSubscripts() throws {
        let cases: [(code: String, shown: Bool, paired: Bool)] = [
            ("Text(tips[index])", true, true),
            ("Text(model.tips[index])", true, true),
            ("Text(self.model?.tips[index])", true, true),
            ("Text(store.items()[0].tips[index])", true, true),
            ("Text(store?[0].tips[index])", true, true),
            ("Text(load!(1).tips[index])", true, true),
            ("Text((a ?? b).tips[index])", true, true),
            ("Text(\n    model\n        .tips[index]\n)", true, true),
            ("Text(`tips`[index])", true, true),
            ("Text($0.tips[index])", true, true),
            // The grammar lets `*` and prefix operators bind tighter than the subscript: `(count * model.tips)[index]`
            // shows no element of `tips`; the lexer, which walks over the operator, pairs it (a "yes" for nothing).
            ("Text(count * model.tips[index])", false, true),
            ("Text(-model.tips[index])", false, true),
            ("Text(verbatim: tips[index])", false, false),
            ("Text(title, tableName: tips[index])", false, false),
            // Operators are walked over whole: an operand's subscript pairs too (a "yes" for nothing, never a wrong "no").
            ("Text(title + tips[index])", false, true),
            ("Text(\"\\(tips[index])\")", false, false),
            ("Text(try model.tips[index])", false, false),
            ("Text(count / tips[index])", false, true),
            ("Text(count == tips[index])", false, false),
            ("ForEach(0..<model.tips[index])", false, false),
            ("Text(Cache<Tip>.shared.tips[index])", false, true),
            ("Text(Cache<Tip>(size: 2).tips[index])", true, true),
            ("Text(title) // model.tips[index]", false, false),
            ("Text(/* the tip */ count * tips[index])", false, true),
        ]
        for (code, shown, paired) in cases {
            let (displays, nameIndex) = try displays(in: code)
            XCTAssertEqual(displays.filter { if case .element = $0 { return true } else { return false } }.count, shown ? 1 : 0, code)
            XCTAssertEqual(nameIndex.subscripts(hash: WordHash.ofName("tips"), asFirstArgumentOfAny: [WordHash.ofName("Text")]), paired, code)
        }
        // `$0` is one name to the parser, `0` to the lexer's hash (`WordHash.ofName`): the `$` is stepped over.
        let (dollarShown, dollar) = try displays(in: "Text($0[index])")
        XCTAssertEqual(dollarShown, [.element(array: "$0", indexNames: ["index"])])
        XCTAssertTrue(dollar.subscripts(hash: WordHash.ofName("$0"), asFirstArgumentOfAny: [WordHash.ofName("Text")]))
        // Where a comment, a directive or a string hides part of the chain, any call may show any array.
        for code in ["Text( // the tip\n    tips[index])", "Text(/* the tip */ tips[index])", "Text(model // which\n    .tips[index])",
                     "Text(store[\"key\"].tips[index])", "Text(model\n#if os(iOS)\n    .tips[index]\n#endif\n)"] {
            let nameIndex = FileNameIndex(bytes: Array(code.utf8), clocks: .builtIn)
            XCTAssertTrue(nameIndex.subscripts(hash: WordHash.ofName("tips"), asFirstArgumentOfAny: [WordHash.ofName("Label")]), code)
        }
        XCTAssertFalse(FileNameIndex(bytes: Array("Text(tips[index])".utf8), clocks: .builtIn)
            .subscripts(hash: WordHash.ofName("tips"), asFirstArgumentOfAny: [WordHash.ofName("Label")]))
    }

    /// The same for a state's property: a display shows `phase.message` only as its whole first
    /// argument, so the lexer pairs the call with the base and the member when the member ends the
    /// argument (`)` or `,` after it) and the chain starts right after the call's `(`.
    func testTheSignatureKnowsWhichMembersEndACallsFirstArgument() throws {
        let cases: [(code: String, shown: Bool, paired: Bool)] = [
            ("Text(phase.message)", true, true),
            ("Text(oven.phase.message)", true, true),
            ("Text(\n    oven.phase\n        .message\n)", true, true),
            ("Text(phase.message, bundle: .main)", true, true),
            ("Text(phase.`message`)", true, true),
            ("Text($0.phase.message)", true, true),
            ("Text(rate * oven.phase.message)", false, true),  // `rate * (oven.phase.message)`: a product, not the property
            ("Text(phase.message.uppercased())", false, false),
            ("Text(phase.message ?? \"\")", false, false),
            ("Text(verbatim: phase.message)", false, false),
            ("Text(\"Oven\").help(phase.message)", false, false),
        ]
        for (code, shown, paired) in cases {
            let (displays, nameIndex) = try displays(in: code)
            // The parser keeps a member's backticks (`` `message` ``); the lexer's names have none.
            let properties = displays.filter { if case .property("phase", let property) = $0 { return WordHash.ofName(property) == WordHash.ofName("message") } else { return false } }
            XCTAssertEqual(properties.count, shown ? 1 : 0, code)
            XCTAssertEqual(nameIndex.accesses(hash: WordHash.ofName("message"), of: WordHash.ofName("phase"), asFirstArgumentOfAny: [WordHash.ofName("Text")]),
                           paired, code)
        }
        for code in ["Text(phase // the current one\n    .message)", "Text(phase./* which */ message)", "Text(oven /* c */ .phase.message)"] {
            let nameIndex = FileNameIndex(bytes: Array(code.utf8), clocks: .builtIn)
            XCTAssertTrue(nameIndex.accesses(hash: WordHash.ofName("message"), of: WordHash.ofName("phase"), asFirstArgumentOfAny: [WordHash.ofName("Text")]), code)
        }
    }

    /// What the parser shows in `code` (inside a view's body), and the name index of that file, which
    /// must deny nothing the parser finds.
    func displays(in code: String) throws -> ([RotationFacts.Shown], FileNameIndex) {
        let source = "import SwiftUI\n\nstruct TipView: View {\n    var body: some View {\n        \(code)\n    }\n}\n"
        let tree = try Parser().parse(SourceText(source))
        let facts = try XCTUnwrap(RuleEngine(ruleSet: .builtIn()).analyze(tree: tree, file: "TipView.swift").rotation)
        let nameIndex = FileNameIndex(bytes: Array(source.utf8), clocks: .builtIn)
        XCTAssertEqual(nameIndex.factsMissed(tree: tree, facts: facts), [], code)
        return (facts.displays.map(\.shown), nameIndex)
    }

    /// The lexer pairs a member only with the name right before its dot: the parser shows a member of
    /// a call or a subscript (`tips[0].message`, `model().title`) as a value, which no round asks
    /// about by pair, and a member of a parenthesized name pairs with that name.
    func testAMemberOfACallOrSubscriptIsShownAsAValue() throws {
        let text = """
            import SwiftUI

            struct TipView: View {
                var body: some View {
                    VStack {
                        Text(tips[0].message)
                        Text(model().title)
                        Text((phase).label)
                        Text(oven.phase?.caption)
                    }
                }
            }
            """
        let tree = try Parser().parse(SourceText(text))
        let facts = try XCTUnwrap(RuleEngine(ruleSet: .builtIn()).analyze(tree: tree, file: "TipView.swift").rotation)
        XCTAssertEqual(facts.displays.map(\.shown), [.value("message"), .value("title"), .value("label"), .property(base: "phase", property: "caption")])
        let nameIndex = FileNameIndex(bytes: Array(text.utf8), clocks: .builtIn)
        XCTAssertTrue(nameIndex.accesses("caption", of: "phase"))
        XCTAssertTrue(nameIndex.accesses("label", of: "phase"), "past the closing parenthesis")
        XCTAssertFalse(nameIndex.accesses("message", of: "state"))
        XCTAssertFalse(nameIndex.accesses("title", of: "model"))
        XCTAssertEqual(nameIndex.factsMissed(tree: tree, facts: facts), [])
    }

    func testTheSignatureFindsEveryStringArrayAndMostNonArrays() {
        let arrays = [
            "let tips = [\"One\", \"Two\"]",
            "let tips = [\n    // the first\n    \"One\", /* two */ \"Two\",\n]",
            "let tips = [\"Say \\(name)\", \"Two\"]",
            "let tips = [#\"raw\"#, #\"two\"#]",
            "let tips = [\"\"\"\n  long\n  \"\"\", \"Two\"]",
            "let tips = [\"a \\\" quote\", \"b\"]",
            "let tips: [String] =\n    [\"One\", \"Two\"]",
            "let tips = // the tips\n    [\"One\", \"Two\"]",
            "let tips = // the tips\r    [\"One\", \"Two\"]",
            "let tips = /* the tips */ [\"One\", \"Two\"]",
            "let tips =\n#if DEBUG\n    [\"One\", \"Two\"]\n#else\n    []\n#endif",
            "let tips = [\n#if DEBUG\n    \"One\",\n#endif\n    \"Two\", \"Three\"]",
        ]
        for text in arrays {
            XCTAssertTrue(FileNameIndex(bytes: Array(text.utf8), clocks: .builtIn).mayDeclareStringArray, text)
        }
        let others = [
            "let headers = [\"Accept\": \"json\"]", "let value = dictionary[\"key\"]", "let one = [\"Only\"]",
            "let mixed = [\"a\" + b, \"c\"]", "let numbers = [1, 2]", "let empty: [String] = []",
            "show([\"One\", \"Two\"])", "return [\"One\", \"Two\"]", "for tip in [\"One\", \"Two\"] {}",
            "if [\"One\", \"Two\"]\n    .contains(word) {}", "model.tips = [\"One\", \"Two\"]",
            "request.keys = [#keyPath(Entity.uuid), #keyPath(Entity.url)]",
        ]
        for text in others {
            XCTAssertFalse(FileNameIndex(bytes: Array(text.utf8), clocks: .builtIn).mayDeclareStringArray, text)
        }
    }

    func testTheSignatureBindsAStringArrayToTheNameBeforeItsEqualsSign() {
        let tips = WordHash.ofName("tips")
        let bound = [
            "let tips = [\"One\", \"Two\"]", "static let tips: [String] =\n    [\"One\", \"Two\"]",
            "var other = 1\nlet tips: [String] = [\n    \"One\",\n    \"Two\",\n]",
        ]
        for text in bound {
            XCTAssertEqual(FileNameIndex(bytes: Array(text.utf8), clocks: .builtIn).boundArrayNames.hashes, [tips], text)
        }
        // A keyword that may sit in a comment keeps the binding before it; a slash elsewhere does not.
        let old = WordHash.ofName("old"), url = WordHash.ofName("url")
        let chains: [(String, Set<UInt64>)] = [
            ("let url = URL(string: \"https://example.com\")\nlet tips = [\"One\", \"Two\"]", [tips]),
            ("let tips /* let old */ = [\"One\", \"Two\"]", [old, tips]),
            ("let tips /* /* */ let old */ = [\"One\", \"Two\"]", [old, tips]),
            ("let url = 1 // let old = 2\nlet tips = [\"One\", \"Two\"]", [tips]),
            ("let url = 1; let tips = 2 // let old = [\"One\", \"Two\"]", [old, tips]),
        ]
        for (text, expected) in chains {
            XCTAssertEqual(FileNameIndex(bytes: Array(text.utf8), clocks: .builtIn).boundArrayNames.hashes, expected, text)
        }
        _ = url
        // Where the lexer loses track, the closer reading at the code (comments and strings set apart) binds.
        let careful: [(String, Set<UInt64>, Bool)] = [
            ("let tips: [String]\n    = [\"One\", \"Two\"]", [tips], true),
            ("let tips = // the tips\n    [\"One\", \"Two\"]", [tips], true),
            ("let tips = /* the tips */ [\"One\", \"Two\"]", [tips], true),
            ("let\n    tips =\n    [\"One\", \"Two\"]", [tips], true),
            ("let first = 1,\n    tips = [\"One\", \"Two\"]", [WordHash.ofName("first"), tips], true),
            ("let\n    tips: Set<String>\n    = [\"One\", \"Two\"]", [tips], true),
            ("let count = 1\ntips = [\"One\", \"Two\"]", [], false),
            ("func show(tips: [String] = [\"One\", \"Two\"]) {}", [], false),
            ("let tips: [String]\n    = [\"Say \\(greeting(\"a\", \"b\"))\", \"One\"]\n    + []", [tips], true),
        ]
        for (text, names, found) in careful {
            let nameIndex = FileNameIndex(bytes: Array(text.utf8), clocks: .builtIn)
            XCTAssertEqual(nameIndex.boundArrayNames.hashes, names, text)
            XCTAssertEqual(nameIndex.mayDeclareStringArray, found, text)
        }
        // A directive where the value or an element could be: the names stay unknown.
        for text in ["let tips =\n#if DEBUG\n    [\"One\", \"Two\"]\n#else\n    []\n#endif",
                     "let tips: [String]\n    = [\n#if DEBUG\n    \"One\",\n#endif\n    \"Two\"]"] {
            XCTAssertNil(FileNameIndex(bytes: Array(text.utf8), clocks: .builtIn).boundArrayNames.hashes, text)
        }
        // Broken code the parser reads as a declaration of the last name of a dotted pattern.
        let dotted = FileNameIndex(bytes: Array("struct S {\n    private let m.essages = [\"One\", \"Two\"]\n}".utf8), clocks: .builtIn)
        XCTAssertTrue(dotted.boundArrayNames.mayIntersect([WordHash.ofName("essages")]))
        XCTAssertEqual(FileNameIndex(bytes: Array("let tips: Swift.Array<String> = [\"One\", \"Two\"]".utf8), clocks: .builtIn).boundArrayNames.hashes, [tips])
        // An array that is no declaration's value neither binds a name nor makes the names unknown.
        let notBound = "let tips = 3\nshow([\"One\", \"Two\"])\nreturn [\"Three\", \"Four\"]"
        XCTAssertEqual(FileNameIndex(bytes: Array(notBound.utf8), clocks: .builtIn).boundArrayNames.hashes, [])
    }

    func testTheSignatureFindsNULAndInvalidUTF8LikeSwiftsDecoder() {
        let samples: [[UInt8]] = [
            Array("plain".utf8), Array("caf\u{E9} \u{1F600} \u{10FFFF}".utf8), [0x61, 0xC0, 0x80], [0x61, 0xE0, 0x80, 0x80],
            [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x62, 0x63, 0xE2, 0x82], [0xFF], [0x61, 0x00, 0x62], [0xC3, 0xA9, 0x80],
        ]
        for bytes in samples {
            let nameIndex = FileNameIndex(bytes: bytes, clocks: .builtIn)
            let swiftValid = String(validating: bytes, as: UTF8.self) != nil
            XCTAssertEqual(nameIndex.firstInvalidUTF8Offset == nil, swiftValid, "\(bytes)")
            XCTAssertEqual(nameIndex.firstNULOffset, bytes.firstIndex(of: 0), "\(bytes)")
        }
        XCTAssertEqual(FileNameIndex(bytes: [0x61, 0x62, 0xE2, 0x28, 0xA1], clocks: .builtIn).firstInvalidUTF8Offset, 2)
    }
}
