import AuditModel
import AuditReport
import AuditRules
import AuditScan
import AuditSelect
import Foundation
import LoadAuditTestSupport
import TreeSitter
import XCTest

/// The select step must never change a result: with it (and any number of workers), a scan reports
/// byte for byte what parsing every file reports, and a file it does not choose holds nothing that
/// counts on its own. (And the engine's walks that skip unmarked subtrees find what whole walks find.)
final class SelectionAgainstParsingTests: XCTestCase {
    static let repository = RepositoryFolder.root

    func report(_ path: String, prefilter: Bool = true, jobs: Int = 2) throws -> String {
        let scanner = ProjectScanner(engine: RuleEngine(ruleSet: .builtIn()), discovery: SourceDiscovery(currentDirectory: path),
                                     jobs: jobs, prefilter: prefilter)
        return JSONReport.render(try scanner.scan([path]), toolVersion: "test")
    }

    func testThePrefilterAndTheWorkersNeverChangeTheReport() throws {
        let generated = try GeneratedTrees.swiftUIScreens()
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
    /// and look-alikes are dealt out over files at random (their names agree only by chance, so few
    /// rotations line up): following the clocks' links across files must find exactly what parsing
    /// every file finds.
    func testFollowingRotationsAcrossFilesNeverChangesTheReport() throws {
        var kinds: [String: Int] = [:]
        for seed in 1...40 {
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
            XCTAssertGreaterThan(kinds[kind] ?? 0, 0, "the projects hold rotations of the kind \(kind): \(kinds)")
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
    /// The select step's one decision per file: the files a clock's file links to (by the names its
    /// facts state: the type around the clock, the globals and types it reads) are parsed, and the
    /// rest are not, whatever they show; the report is what parsing every file gives.
    func testTheFilesAClockLinksToAreParsedAndTheOthersAreNot() throws {
        let files = [
            "Tips.swift": "let tips = [\"Warming up the oven\", \"Almost there\"]\n",
            "TipModel.swift": "import Foundation\n\nfinal class TipModel: ObservableObject {\n    @Published var index = 0\n    func start() {\n        Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { [weak self] _ in\n            guard let self else { return }\n            self.index = (self.index + 1) % tips.count\n        }\n    }\n}\n",
            "TipView.swift": "import SwiftUI\n\nstruct TipView: View {\n    @ObservedObject var model: TipModel\n    var body: some View {\n        Text(tips[model.index])\n    }\n}\n",
            // A display of another array, and a file that names nothing the clock links by.
            "Rows.swift": "import SwiftUI\n\nstruct Row: View {\n    let titles: [String]\n    let index: Int\n    var body: some View {\n        Text(titles[index])\n    }\n}\n",
            "Docs.swift": "/// Shows `Text(titles[index])`, one title at a time.\nfunc title(_ titles: [String], index: Int) -> String {\n    titles[index]\n}\n",
        ]
        let root = try project(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let (result, parsed) = try scanTracingParses(root)
        XCTAssertEqual(parsed, ["TipModel.swift", "TipView.swift", "Tips.swift"])
        XCTAssertEqual(result.findings.map { "\($0.file):\($0.start.line) \($0.ruleId)" }, ["TipView.swift:6 rotating-loading-message"])
        XCTAssertEqual(try report(root.path), try report(root.path, prefilter: false, jobs: 1))
    }

    /// Without a clock that counts, nothing is followed: a view that only shows an array, and a clock
    /// in a file that neither shows text nor holds observable state (a cache's refresh timer).
    func testWithoutAClockThatCountsNothingIsFollowed() throws {
        let files = [
            "Tips.swift": "let tips = [\"Warming up the oven\", \"Almost there\"]\n",
            "TipView.swift": "import SwiftUI\n\nstruct TipView: View {\n    let index: Int\n    var body: some View {\n        Text(tips[index])\n    }\n}\n",
            "Cache.swift": "import Foundation\n\nfinal class Cache {\n    var index = 0\n    func start() {\n        Timer.scheduledTimer(withTimeInterval: 60, repeats: true) { _ in self.index += 1 }\n    }\n}\n",
        ]
        let root = try project(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let (result, parsed) = try scanTracingParses(root)
        XCTAssertEqual(parsed, [])
        XCTAssertEqual(result.findings, [])
        XCTAssertEqual(try report(root.path), try report(root.path, prefilter: false, jobs: 1))
    }

    /// A view whose only `ProgressView` shows determinate progress (an upload's fraction, drawn as a
    /// bar) has nothing to report and is not parsed; the same progress drawn by a spinning style is a
    /// custom indicator, found.
    func testDeterminateProgressAloneDoesNotMakeAFileParsed() throws {
        let files = [
            "UploadRow.swift": "import SwiftUI\n\nstruct UploadRow: View {\n    @ObservedObject var upload: UploadTask\n    var body: some View {\n        ProgressView(value: upload.sentBytes, total: upload.totalBytes)\n            .progressViewStyle(.linear)\n    }\n}\n",
            "TicketSyncBadge.swift": "import SwiftUI\n\nstruct TicketSyncBadge: View {\n    let fraction: Double\n    var body: some View {\n        ProgressView(value: fraction)\n            .progressViewStyle(ThemedSpinnerStyle())\n    }\n}\n",
        ]
        let root = try project(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let (result, parsed) = try scanTracingParses(root)
        XCTAssertEqual(parsed, ["TicketSyncBadge.swift"])
        XCTAssertTrue(result.findings.first?.message.contains("determinate progress drawn by the custom style") ?? false)
        XCTAssertEqual(try report(root.path), try report(root.path, prefilter: false, jobs: 1))
    }

    /// A file the select step does not choose must hold nothing a parse reports on its own (no
    /// candidate, suppression or re-export) and no clock that counts: checked on every fixture, every
    /// input the fuzzer once failed on (fuzz/regressions), and every file of generated rotation projects.
    func testAFileNotChosenHoldsNothingThatCountsOnItsOwn() throws {
        let (files, trees) = try checkedFiles()
        defer { for tree in trees { try? FileManager.default.removeItem(at: tree) } }
        let engine = RuleEngine(ruleSet: .builtIn())
        let selector = FileSelector(engine.selectionNeeds)
        let parser = try Parser()
        var chosen = 0, anchors = 0
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            guard FileSelector.textProblems(bytes).firstInvalidUTF8 == nil else { continue }
            let analysis = engine.analyze(tree: try parser.parse(SourceText(bytes: bytes)), file: file.lastPathComponent)
            if analysis.rotation?.isAnchor == true { anchors += 1 }
            guard selector.decide(bytes, path: file.lastPathComponent) != .parse else {
                chosen += 1
                continue
            }
            XCTAssertEqual(Self.reportable(analysis), [], file.path)
            XCTAssertFalse(analysis.rotation?.isAnchor ?? false, file.path)
            // A file left for later links when it states a name; its bytes must then mention it.
            for name in analysis.rotation?.statedNames ?? [] {
                guard let hash = WordHash.ofWord(name) else { continue }
                XCTAssertTrue(FileSelector.mentionsAny(of: [hash], in: bytes), "\(file.path): \(name)")
                XCTAssertTrue(selector.wants(bytes, FileSelector.FollowUp([name])), "follow-up, \(file.path): \(name)")
            }
        }
        XCTAssertGreaterThan(chosen, 50)
        XCTAssertGreaterThan(anchors, 20)
    }


    /// A stored value that starts as a random pick makes its file an anchor even when the file calls no
    /// display (a view that hands the pick to a custom view): the select step must parse it. Found by
    /// the fuzzer (a fixture's `Text` mutated away), missed since the initial picks came in (1f7f8b8).
    func testAStoredRandomPickWithoutADisplayIsChosen() throws {
        let text = """
            import SwiftUI

            struct TipsCard: View {
                private static let tips = ["Swipe left to archive", "Tap and hold to pin", "Shake to undo"]
                @State private var tip = TipsCard.tips.randomElement() ?? "Swipe left to archive"

                var body: some View {
                    TipBanner(message: tip)
                }
            }

            """
        let bytes = Array(text.utf8)
        let engine = RuleEngine(ruleSet: .builtIn())
        let facts = try XCTUnwrap(engine.analyze(tree: try Parser().parse(SourceText(bytes: bytes)), file: "TipsCard.swift").rotation)
        XCTAssertTrue(facts.isAnchor, "the reader takes the stored pick as an anchor")
        XCTAssertEqual(FileSelector(engine.selectionNeeds).decide(bytes, path: "TipsCard.swift"), .parse)
    }

    /// A `String, CaseIterable` enum's `allCases` is the compiler's: the reader keeps it as a member
    /// (another file's `Tip.allCases[i].rawValue` reads its strings), but a file whose bytes never say
    /// `allCases` does not state it (the follow-up's whole-word search could not find it; found by the
    /// fuzzer).
    func testASynthesizedAllCasesIsNoNameTheFileStates() throws {
        let text = """
            enum LoadingTip: String, CaseIterable {
                case syncing = "Syncing your library"
                case sorting = "Sorting by date"
                case almost = "Almost there"
            }

            """
        let bytes = Array(text.utf8)
        let engine = RuleEngine(ruleSet: .builtIn())
        let facts = try XCTUnwrap(engine.analyze(tree: try Parser().parse(SourceText(bytes: bytes)), file: "LoadingTip.swift").rotation)
        XCTAssertEqual(facts.types.first?.members["allCases"]?.messages, 3, "the member is kept for the resolver")
        XCTAssertTrue(facts.statedNames.contains("LoadingTip"))
        XCTAssertFalse(facts.statedNames.contains("allCases"))
        for name in facts.statedNames {
            let hash = try XCTUnwrap(WordHash.ofWord(name))
            XCTAssertTrue(FileSelector.mentionsAny(of: [hash], in: bytes), name)
        }
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
            guard FileSelector.textProblems(bytes).firstInvalidUTF8 == nil else { continue }
            let tree = try parser.parse(SourceText(bytes: bytes))
            let skipped = skipping.analyze(tree: tree, file: name)
            let walked = whole.analyze(tree: tree, file: name)
            XCTAssertEqual(skipped.candidates.map(\.finding), walked.candidates.map(\.finding), name)
            XCTAssertEqual(skipped.candidates.map { $0.moduleCheck?.module }, walked.candidates.map { $0.moduleCheck?.module }, name)
            XCTAssertEqual(skipped.candidates.map { $0.moduleCheck?.fileImports }, walked.candidates.map { $0.moduleCheck?.fileImports }, name)
            XCTAssertEqual(skipped.suppressions, walked.suppressions, name)
            XCTAssertEqual(try encoder.encode(skipped.rotation), try encoder.encode(walked.rotation), name)
            candidates += walked.candidates.count
            suppressions += walked.suppressions.count
            rotationFacts += walked.rotation.map { $0.types.count + $0.globals.count + $0.changes.count + $0.displays.count } ?? 0
        }
        // The files hold something of each kind to find.
        XCTAssertGreaterThan(candidates, 100)
        XCTAssertEqual(suppressions, 3)
        XCTAssertGreaterThan(rotationFacts, 50)
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
            case 0: pieces.append("enum Copy {\n" + random.pick([
                "    static let \(array) = [\"Warming up…\", \"Almost there…\"]\n",
                "    static let \(array): [String] = [\n        \"Warming up…\",\n        \"Almost there…\",\n    ]\n",
                "    static var \(array) = [ // the copy\n        \"Warming up…\", \"Almost there…\"]\n",
                "    static let \(array) = /* was: let old */ [\"Warming up…\", \"Almost there…\"]\n",
            ]) + "}\n")
            case 1: pieces.append("""
                enum Phase {
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
                final class Ticker: ObservableObject {
                    @Published var \(state) = 0
                    func start() {
                        Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { _ in \(random.pick(["self.\(state) += 1", "self.\(state) = (self.\(state) + 1) % Copy.\(array).count", "self.\(state)\n                += 1", "self.\(state) = (self.\(state) + 1) % Copy.\(array).count"])) }
                    }
                }

                """)
            case 3: pieces.append("""
                final class Phaser: ObservableObject {
                    @Published var \(state) = Phase.\(first)
                    func start() {
                        DispatchQueue.main.asyncAfter(deadline: .now() + 2) { \(random.pick(["self.\(state) = .\(second)", "self.\(state) =\n                .\(second)", "\(state) = Phase.\(second)"])) }
                    }
                }

                """)
            case 4: pieces.append("""
                final class Liner: ObservableObject {
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
                final class Refresher {
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
}
