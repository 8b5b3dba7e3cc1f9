@testable import AuditSelect
@testable import AuditRules
import LoadAuditTestSupport
import XCTest

/// The word screen (`WordScreen`) and the decision it feeds (`FileSelector.decide`): a file is parsed
/// when it uses a rule's word in code, or may anchor rotating text on its own (a clock with a display
/// or observable state, a display with a random pick); with rotating-text rules every other file is
/// left for later, without them it is skipped.
final class WordScreenTests: XCTestCase {
    private let engine = RuleEngine(ruleSet: .builtIn())
    /// The built-in rules without the rotating-text rule: the words alone decide.
    private lazy var componentsOnly: RuleEngine = {
        var rules = RuleSet.builtIn()
        rules.apply(severities: ["rotating-loading-message": nil])
        return RuleEngine(ruleSet: rules)
    }()

    private func decision(_ text: String, _ engine: RuleEngine? = nil) -> FileDecision {
        FileSelector((engine ?? self.engine).selectionNeeds).decide(Array(text.utf8), path: "View.swift")
    }

    /// Whether the screen of `engine`'s words sees any of them (comments and strings count).
    private func wordScreen(_ text: String, _ engine: RuleEngine? = nil) -> Bool {
        let selector = FileSelector((engine ?? componentsOnly).selectionNeeds)
        guard let screen = WordScreen(groups: selector.triggerWords.map { [$0] } + [["Text"], ["Label"], ["asyncAfter"], ["sleep"], ["scheduledTimer"]]) else { return true }
        return Array(text.utf8).withUnsafeBufferPointer { !screen.groupsAppearing(in: $0).isEmpty }
    }

    func testFilesWithoutAnyAskedWordAreSkippedOrLeftForLater() {
        let plain = [
            "",
            "import Foundation\n\nstruct User: Codable {\n    let name: String\n    var karma = 0\n}\n",
            // Look-alikes: the words only as parts of longer names.
            "let field = TextField(\"Name\", text: $name)\nlet label = UILabel()\nlet style = LabelStyle.self\n",
            "let myText = \"\"\nfunc Textual() {}\nlet ProgressViews = 2\nlet sleepy = true\nlet enumerated = list.enumerated()\n",
            // A multi-byte character joins the name (`éText` is one name).
            "let éText = 1\nlet café = \"☕️\" // déjà vu\n",
            // A word in a comment or a string is no use.
            "// ProgressView was here\n",
            "let s = \"ThemedSpinner\"\n",
            // Half of an anchor: a clock alone, a display alone.
            "DispatchQueue.main.asyncAfter(deadline: .now() + 1) { reload() }\n",
            "Text(\"Hi\")\n",
            "let tips = [\"Stretch\", \"Hydrate\"]\n",
        ]
        for text in plain {
            XCTAssertEqual(decision(text), .later, text)
            XCTAssertEqual(decision(text, componentsOnly), .skip, text)
        }
    }

    func testARulesWordInCodeOrAnAnchorIsParsedAtOnce() {
        let parsed = [
            "ProgressView()",
            "x.LoadingOverlay()",
            "let v = UIActivityIndicatorView(style: .large)\n",
            "// loadaudit:ignore-file loading-dots\n",
            "@_exported import DesignSystem\n",
        ]
        for text in parsed {
            XCTAssertEqual(decision(text), .parse, text)
            XCTAssertEqual(decision(text, componentsOnly), .parse, text)
        }
        let anchors = [
            "Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in index += 1 }\nText(tips[index])\n",
            "@Published var index = 0\nfunc go() { DispatchQueue.main.asyncAfter(deadline: .now() + 1) { self.index += 1 } }\n",
            "@State private var i = 0\nvar body: some View { TimelineView(.everyMinute) { c in Label(\"x\", systemImage: \"y\") } }\n",
            ".onReceive(ticker) { _ in n += 1 }\nlet ticker = Timer.publish(every: 1, on: .main, in: .common)\nText(lines[n])\n",
            "Text(tips.randomElement() ?? \"\")\n",
            "label.text = tips[i]\nTimer.scheduledTimer(timeInterval: 2, target: self, selector: #selector(tick), userInfo: nil, repeats: true)\n",
        ]
        for text in anchors {
            XCTAssertEqual(decision(text), .parse, text)
            XCTAssertEqual(decision(text, componentsOnly), .skip, text)
        }
        // A clock and a display count where the reader takes them: a call, a property set on a view, an
        // attribute or a conformance. The same words elsewhere make no anchor.
        let lookAlikes = [
            // `title` read, not set on a view; `Text` as a type.
            "func go() { DispatchQueue.main.asyncAfter(deadline: .now() + 1) { print(item.title) } }\nlet t: Text? = nil\n",
            // `title` set, but on no value (a plain variable), and compared.
            "var title = \"\"\nfunc go() { Task { try await Task.sleep(for: .seconds(1)); title = \"x\"; _ = a.title == b } }\n",
            // `State` as a type's member name, not an attribute.
            "func go() { DispatchQueue.main.asyncAfter(deadline: .now() + 1) { self.mode = Screen.State.idle } }\n",
            // A receiver with no publisher named in the file: the reader takes no clock from it.
            "var body: some View { Text(\"x\").onReceive(model.changes) { _ in n += 1 } }\n",
            // `sleep` not called: a name in a key path.
            "@State private var s = 0\nlet k = \\Settings.sleep\n",
        ]
        for text in lookAlikes { XCTAssertEqual(decision(text), .later, text) }
        let counted = [
            "func go() { DispatchQueue.main.asyncAfter(deadline: .now() + 1) { self.statusLabel.text = lines[i] } }\n",
            "func go() { DispatchQueue.main.asyncAfter(deadline: .now() + 1) { label?.text = lines[i] } }\n",
            "func go() { DispatchQueue.main.asyncAfter(deadline: .now() + 1) { i += 1 } }\nvar body: some View { Text\n(lines[i]) }\n",
            "final class M: NSObject,\n    ObservableObject { func go() { Task { while true { try await Task.sleep(for: .seconds(1)); i += 1 } } } }\n",
            "@Observation.Observable final class M { func go() { Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in self.i += 1 } } }\n",
            "@SwiftUI.State var i = 0\nfunc go() { DispatchQueue.main.asyncAfter(deadline: .now() + 1) { i += 1 } }\n",
            "func go() { DispatchQueue.main.asyncAfter(deadline: .now() + 1) { i += 1 } }\nvar body: some View { Text.init(lines[i]) }\n",
        ]
        for text in counted { XCTAssertEqual(decision(text), .parse, text) }
        // A manifest is always read.
        XCTAssertEqual(FileSelector(componentsOnly.selectionNeeds).decide(Array("let package = Package(name: \"A\")\n".utf8), path: "Kit/Package.swift"), .manifest)
    }

    func testTheScreenSeesWordsAnywhere() {
        for text in ["// ProgressView was here\n", "let s = \"ThemedSpinner\"\n", "`Text`", "0Text", "x.LoadingOverlay"] {
            XCTAssertTrue(wordScreen(text), text)
        }
        for text in ["let myText = 1\n", "TextField()", "let éText = 1\n", "LabelStyle"] { XCTAssertFalse(wordScreen(text), text) }
    }

    /// The follow-up asks its names' word screen first, then hashes the names of the files it passes:
    /// the answer is the hashing's alone, wherever a name falls, whatever stands around it.
    func testTheFollowUpsScreenAnswersAsHashingEveryNameDoes() {
        let selector = FileSelector(engine.selectionNeeds)
        let nameSets: [Set<String>] = [["StreamWatcher"], ["Model", "SavingState", "publishStatusTaskStartDelayWeight"], ["ab", "x"], ["Über", "ok"]]
        for names in nameSets {
            let followUp = FileSelector.FollowUp(names)
            let hashes = Set(names.compactMap(WordHash.ofWord))
            for name in names {
                for offset in 0..<20 {
                    for (before, after) in [(" ", "("), ("a9", " "), ("9", "."), ("_", ""), ("é", "\n"), ("", "s"), ("// ", " //"), ("\"", "\"")] {
                        let text = String(repeating: "=", count: offset) + before + name + after + String(repeating: "-", count: offset % 7)
                        let bytes = Array(text.utf8)
                        XCTAssertEqual(selector.wants(bytes, followUp), FileSelector.mentionsAny(of: hashes, in: bytes), "\(names.sorted()): \(text)")
                    }
                }
            }
            XCTAssertFalse(selector.wants(Array("let other = Thing()\n".utf8), followUp), "\(names.sorted())")
        }
        XCTAssertNotNil(FileSelector.FollowUp(["StreamWatcher", "Model"]).search.screen)
        XCTAssertNil(FileSelector.FollowUp(["ab", "x"]).search.screen, "a name of one byte: hashing only")
    }

    /// The look hashes four bytes where a word starts: a word must be seen wherever it starts and ends.
    func testEveryWordIsSeenAtEveryOffset() {
        let words = FileSelector(componentsOnly.selectionNeeds).triggerWords.filter { $0.allSatisfy(\.isLetter) } + ["Text", "Label", "asyncAfter", "sleep", "scheduledTimer"]
        for word in words {
            for offset in 0..<6 {
                let before = String(repeating: " ", count: offset)
                for after in ["", "(", "\n", " ", "`"] {
                    XCTAssertTrue(wordScreen(before + word + after), "\(offset) \(word)\(after)")
                    XCTAssertTrue(wordScreen("// ." + before + word + after), "comment, \(offset) \(word)\(after)")
                }
                XCTAssertFalse(wordScreen(before + word + "s"), "\(offset) \(word)s")
                XCTAssertFalse(wordScreen(before + "_" + word), "\(offset) _\(word)")
            }
        }
    }

    /// The look takes sixteen bytes at a time: a word must be seen, and a look-alike passed over,
    /// wherever it falls against those blocks, with what comes before it in the block before.
    func testWordsAcrossTheSixteenByteBlocks() {
        for word in ["Text", "ProgressView", "sleep"] {
            for offset in 0..<40 {
                for (before, isBoundary) in [(" ", true), ("(", true), ("0", true), ("a", false), ("_", false), ("é", false), ("Z", false)] {
                    let lead = String(repeating: "=", count: offset) + before
                    let text = lead + word + "()\n" + String(repeating: "-", count: 20)
                    XCTAssertEqual(wordScreen(text), isBoundary, "\(offset) \(before)\(word)")
                    // The same with the file ending right after the word, and in a longer file.
                    XCTAssertEqual(wordScreen(lead + word), isBoundary, "\(offset) \(before)\(word) at the end")
                    XCTAssertEqual(wordScreen(String(repeating: "let x = 1\n", count: 5) + text), isBoundary, "long, \(offset) \(before)\(word)")
                }
                XCTAssertFalse(wordScreen(String(repeating: " ", count: offset) + word + "s" + String(repeating: " ", count: 20)), "\(offset) \(word)s")
            }
        }
    }

    func testTextProblemsAreFoundAtTheirOffsets() {
        XCTAssertEqual(FileSelector.textProblems([0x6C, 0x65, 0x74, 0x20, 0xFF, 0x0A]).firstInvalidUTF8, 4)
        XCTAssertEqual(FileSelector.textProblems(Array("let a = 1\n".utf8) + [0] + Array("let b = 2\n".utf8)).firstNUL, 10)
        // Invalid sequences past the eight-byte fast path, and a truncated one at the end.
        XCTAssertEqual(FileSelector.textProblems(Array("let longerName = 1 //".utf8) + [0xC3]).firstInvalidUTF8, 21)
        XCTAssertEqual(FileSelector.textProblems(Array("let longerName = 1 // ".utf8) + [0xED, 0xA0, 0x80]).firstInvalidUTF8, 22)
        let fine = FileSelector.textProblems(Array("let longerName = 1 // ".utf8) + [0xED, 0x9F, 0xBF])
        XCTAssertNil(fine.firstInvalidUTF8)
        XCTAssertNil(fine.firstNUL)
    }

    func testTheWordsComeFromTheRules() throws {
        let custom = try RuleSetLoader.load(text: """
            version: 1
            rules:
              - id: old-badge
                component: OldBadge
                message: Use Badge.
            """, file: "team.yml")
        let engine = RuleEngine(ruleSet: custom)
        XCTAssertEqual(decision("let b = OldBadge()\n", engine), .parse)
        // No rotating-text rule: displays, clocks and string arrays do not matter.
        XCTAssertEqual(decision("Text(tips[i])\nlet tips = [\"a\", \"b\"]\nTimer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in i += 1 }\n", engine), .skip)
        XCTAssertEqual(decision("ProgressView()\n", engine), .skip)
        // A name of one letter: no word screen, every file gets the closer reading.
        let single = try RuleSetLoader.load(text: """
            version: 1
            rules:
              - id: old-x
                component: X
                message: Gone.
            """, file: "team.yml")
        XCTAssertEqual(decision("let y = X()\n", RuleEngine(ruleSet: single)), .parse)
        XCTAssertEqual(decision("struct User {}\n", RuleEngine(ruleSet: single)), .skip)
    }

    /// The nibble tables (`WordScreen.fingerprints`) only pass over word starts that cannot begin a
    /// literal: the look with them finds what the look at every word start finds, on texts made of the
    /// words, their look-alikes (`TextField`, `asleep`, `public`), separators, digits, multi-byte
    /// characters and noise, at every alignment to the 16-byte blocks and their ends. With the built-in
    /// rules' words, and with 120 made-up component names (more beginnings than buckets, joined first
    /// by neighbours in byte order).
    func testTheFingerprintsPassOverNoWordStart() throws {
        let rotation = try XCTUnwrap(engine.selectionNeeds.rotation)
        let rotationWords = rotation.clockCalls.union(rotation.publishers.keys).union(rotation.displayNames).union(rotation.observableState).union(rotation.randomPicks)
        let builtIn = FileSelector(engine.selectionNeeds).triggerWords.map { [$0] } + rotationWords.sorted().map { [$0] }
        try checkFingerprints(groups: builtIn, lookAlikes: [
            "TextField", "Texts", "TimelineViews", "asleep", "sleepy", "public", "publisher", "async", "asyncAfterDelay", "enumerated", "switches",
            "ProgressViewStyle", "Progress", "Loading", "LoadingView", "UIActivity", "Timers", "onReceived", "scheduled", "_export",
            "loadaudits", "ThemedSpinnerX", "xText", "Tex", "sle", "Pro", "Loa",
        ], seed: 0x5EED_F1A6)
        var random = SeededRandom(seed: 42)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let names = (0..<120).map { _ in
            String(letters[random.below(26)]).uppercased() + String((0..<(3 + random.below(6))).map { _ in letters[random.below(26)] }) + "Badge"
        }
        try checkFingerprints(groups: names.map { [$0] }, lookAlikes: names.map { String($0.dropLast(5)) } + names.map { $0 + "s" },
                              seed: 0xBADC0DE)
    }

    private func checkFingerprints(groups: [[String]], lookAlikes: [String], seed: UInt64) throws {
        let fingerprinted = try XCTUnwrap(WordScreen(groups: groups))
        let plain = try XCTUnwrap(WordScreen(groups: groups, fingerprinted: false))
        XCTAssertTrue(fingerprinted.usesFingerprints)
        XCTAssertFalse(plain.usesFingerprints)
        let words = groups.joined().flatMap { $0.split(separator: ".").map(String.init) }
        let separators = [" ", "(", ")", ".", "\n", "_", "é", "0", "7", "`", "\t", "[\"", "//", "\"", "$", "@", ":", "ü", "☕️"]
        var random = SeededRandom(seed: seed)
        var compared = 0, found = 0
        for _ in 0..<3000 {
            var text: [UInt8] = []
            for _ in 0..<random.below(40) {
                switch random.below(10) {
                case 0, 1: text += Array(random.pick(words).utf8)
                case 2, 3: text += Array(random.pick(lookAlikes).utf8)
                case 4, 5, 6: text += Array(random.pick(separators).utf8)
                case 7: text += (0..<random.below(20)).map { _ in UInt8(0x20 + random.below(0x5F)) }
                default: text += Array(String(repeating: " ", count: random.below(17)).utf8)
                }
            }
            let (a, b) = text.withUnsafeBufferPointer { (fingerprinted.groupsAppearing(in: $0), plain.groupsAppearing(in: $0)) }
            XCTAssertEqual(a, b, String(decoding: text, as: UTF8.self))
            compared += 1
            if !b.isEmpty { found += 1 }
        }
        XCTAssertGreaterThan(found, compared / 4, "the texts hold words often enough to test both answers")
        XCTAssertGreaterThan(compared - found, compared / 10)
    }

    /// Design systems have short names (`HUD`, `UX`) and many of them: the look takes both.
    func testShortNamesAndManyNames() throws {
        let short = RuleEngine(ruleSet: try RuleSetLoader.load(text: """
            version: 1
            rules:
              - id: old-hud
                component: HUD
                message: Gone.
              - id: old-ux
                component: UX
                message: Gone.
            """, file: "team.yml"))
        for offset in 0..<6 {
            let before = String(repeating: " ", count: offset)
            for after in ["", "(", "\n", "`"] {
                XCTAssertEqual(decision(before + "HUD" + after, short), .parse, "\(offset) HUD\(after)")
                XCTAssertEqual(decision(before + "UX" + after, short), .parse, "\(offset) UX\(after)")
            }
            XCTAssertEqual(decision(before + "ProgressHUD()", short), .skip, "\(offset) ProgressHUD")
            XCTAssertEqual(decision(before + "HUDs", short), .skip, "\(offset) HUDs")
            XCTAssertEqual(decision(before + "UXKit.Dots", short), .skip, "\(offset) UXKit")
        }
        let names = (0..<80).map { "LegacyWidget\($0)" }
        let many = RuleEngine(ruleSet: try RuleSetLoader.load(text: "version: 1\nrules:\n" + names.map {
            "  - id: \($0.lowercased())\n    component: \($0)\n    message: Gone.\n"
        }.joined(), file: "team.yml"))
        XCTAssertEqual(decision("struct User {}\n", many), .skip)
        for name in [names[0], names[63], names[64], names[79]] { XCTAssertEqual(decision("let w = \(name)()\n", many), .parse, name) }
        XCTAssertEqual(decision("let w = LegacyWidget80()\n", many), .skip)
    }
}
