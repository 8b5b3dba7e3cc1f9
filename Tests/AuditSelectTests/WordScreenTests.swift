@testable import AuditSelect
@testable import AuditRules
import LoadAuditTestSupport
import XCTest

/// `FileSelector.isIrrelevantByItsWords` lets the scanner skip the lexer: it may say "irrelevant" only
/// where the name index would say neither "relevant on sight" nor "may be followed", and only for valid
/// UTF-8 with no NUL byte (the name index reports the others).
final class WordScreenTests: XCTestCase {
    private let engine = RuleEngine(ruleSet: .builtIn())

    private func wordScreen(_ text: String, _ engine: RuleEngine? = nil) -> Bool {
        FileSelector(engine ?? self.engine).isIrrelevantByItsWords(Array(text.utf8))
    }

    func testFilesWithoutAnyAskedWordAreIrrelevant() {
        let irrelevant = [
            "",
            "import Foundation\n\nstruct User: Codable {\n    let name: String\n    var karma = 0\n}\n",
            // Look-alikes: the words only as parts of longer names.
            "let field = TextField(\"Name\", text: $name)\nlet label = UILabel()\nlet style = LabelStyle.self\n",
            "let myText = \"\"\nfunc Textual() {}\nlet ProgressViews = 2\nlet sleepy = true\nlet enumerated = list.enumerated()\n",
            // A multi-byte character joins the name (`éText` is one name).
            "let éText = 1\nlet café = \"☕️\" // déjà vu\n",
            // Half of a pair: `enum` without `switch`, `switch` without `enum`, `Timer.publish` without `onReceive`.
            "enum Kind { case small, large }\n",
            "func f(_ k: Int) { switch k { default: break } }\n",
            "let ticks = Timer.publish(every: 1, on: .main, in: .common)\n",
            // Arrays that are not arrays of two strings.
            "let sizes = [1, 2]\nlet one = [\"only\"]\nlet pairs = [\"a\": 1]\nlet x = a[0]\n",
        ]
        for text in irrelevant { XCTAssertTrue(wordScreen(text), text) }
    }

    func testAnyAskedWordAnywhereMakesAFileWorthALook() {
        let relevant = [
            "ProgressView()",
            "// ProgressView was here\n",
            "let s = \"ThemedSpinner\"\n",
            "x.LoadingOverlay",
            "let v = UIActivityIndicatorView(style: .large)\n",
            "Text(\"Hi\")\n",
            "Label(\"Hi\", systemImage: \"star\")\n",
            "`Text`",
            "0Text",
            "enum Phase { case a }\nfunc f(p: Phase) { switch p { case .a: break } }\n",
            ".onReceive(ticker) { _ in }\nlet ticker = Timer.publish(every: 1, on: .main, in: .common)\n",
            "DispatchQueue.main.asyncAfter(deadline: .now() + 1) {}\n",
            "try await Task.sleep(nanoseconds: 1)\n",
            "Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in }\n",
            "let tips = [\"Stretch\", \"Hydrate\"]\n",
            "let tips = [\n    // first\n    \"Stretch\",\n    \"Hydrate\",\n]\n",
            "// loadaudit:ignore-file loading-dots\n",
            "@_exported import DesignSystem\n",
        ]
        for text in relevant { XCTAssertFalse(wordScreen(text), text) }
    }

    /// The look hashes four bytes where a word starts: a word must be seen wherever it starts and ends.
    func testEveryWordIsSeenAtEveryOffset() {
        let words = FileSelector(engine).triggerWords.filter { $0.allSatisfy(\.isLetter) } + ["Text", "Label", "asyncAfter", "sleep", "scheduledTimer"]
        for word in words {
            for offset in 0..<6 {
                let before = String(repeating: " ", count: offset)
                for after in ["", "(", "\n", " ", "`"] {
                    XCTAssertFalse(wordScreen(before + word + after), "\(offset) \(word)\(after)")
                    XCTAssertFalse(wordScreen("// ." + before + word + after), "comment, \(offset) \(word)\(after)")
                }
                XCTAssertTrue(wordScreen(before + word + "s"), "\(offset) \(word)s")
                XCTAssertTrue(wordScreen(before + "_" + word), "\(offset) _\(word)")
            }
        }
        XCTAssertFalse(wordScreen("enum E {}\nswitch"))
        XCTAssertFalse(wordScreen(" switch\nenum"))
    }

    /// The look takes sixteen bytes at a time: a word must be seen, and a look-alike passed over,
    /// wherever it falls against those blocks, with what comes before it in the block before.
    func testWordsAcrossTheSixteenByteBlocks() {
        for word in ["Text", "ProgressView", "sleep"] {
            for offset in 0..<40 {
                for (before, isBoundary) in [(" ", true), ("(", true), ("0", true), ("a", false), ("_", false), ("é", false), ("Z", false)] {
                    let lead = String(repeating: "=", count: offset) + before
                    let text = lead + word + "()\n" + String(repeating: "-", count: 20)
                    XCTAssertEqual(wordScreen(text), !isBoundary, "\(offset) \(before)\(word)")
                    // The same with the file ending right after the word, and in a longer file.
                    XCTAssertEqual(wordScreen(lead + word), !isBoundary, "\(offset) \(before)\(word) at the end")
                    XCTAssertEqual(wordScreen(String(repeating: "let x = 1\n", count: 5) + text), !isBoundary, "long, \(offset) \(before)\(word)")
                }
                XCTAssertTrue(wordScreen(String(repeating: " ", count: offset) + word + "s" + String(repeating: " ", count: 20)), "\(offset) \(word)s")
            }
        }
    }

    func testBytesThatAreNotPlainTextAreLeftToTheSignature() {
        XCTAssertFalse(FileSelector(engine).isIrrelevantByItsWords([0x6C, 0x65, 0x74, 0x20, 0xFF, 0x0A]))
        XCTAssertFalse(FileSelector(engine).isIrrelevantByItsWords(Array("let a = 1\n".utf8) + [0] + Array("let b = 2\n".utf8)))
        // Invalid sequences past the eight-byte fast path, and a truncated one at the end.
        XCTAssertFalse(FileSelector(engine).isIrrelevantByItsWords(Array("let longerName = 1 //".utf8) + [0xC3]))
        XCTAssertFalse(FileSelector(engine).isIrrelevantByItsWords(Array("let longerName = 1 // ".utf8) + [0xED, 0xA0, 0x80]))
        XCTAssertTrue(FileSelector(engine).isIrrelevantByItsWords(Array("let longerName = 1 // ".utf8) + [0xED, 0x9F, 0xBF]))
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
        XCTAssertFalse(wordScreen("let b = OldBadge()\n", engine))
        // No rotating-text rule: displays, clocks and string arrays do not matter.
        XCTAssertTrue(wordScreen("Text(tips[i])\nlet tips = [\"a\", \"b\"]\nTimer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in }\n", engine))
        XCTAssertTrue(wordScreen("ProgressView()\n", engine))
        // A name of one letter: no word screen, every file gets its name index.
        let single = try RuleSetLoader.load(text: """
            version: 1
            rules:
              - id: old-x
                component: X
                message: Gone.
            """, file: "team.yml")
        XCTAssertFalse(wordScreen("struct User {}\n", RuleEngine(ruleSet: single)))
    }

    /// The nibble tables (`WordSieve.fingerprints`) only pass over word starts that cannot begin a
    /// literal: the look with them finds what the look at every word start finds, on texts made of the
    /// words, their look-alikes (`TextField`, `asleep`, `public`), separators, digits, multi-byte
    /// characters and noise, at every alignment to the 16-byte blocks and their ends. With the built-in
    /// rules' words, and with 120 made-up component names (more beginnings than buckets, joined first
    /// by neighbours in byte order).
    func testTheFingerprintsPassOverNoWordStart() throws {
        let displayCalls: Set<String> = ["Text", "Label"]
        let builtIn = FileSelector(engine).triggerWords.map { [$0] } + RotationFollower.choosingWords(displayCalls: displayCalls, clocks: .builtIn)
        try checkFingerprints(groups: builtIn, setAside: [RotationFollower.textEnumNames], lookAlikes: [
            "TextField", "Texts", "TimelineViews", "asleep", "sleepy", "public", "publisher", "async", "asyncAfterDelay", "enumerated", "switches",
            "ProgressViewStyle", "Progress", "Loading", "LoadingView", "UIActivity", "Timers", "onReceived", "scheduled", "_export",
            "loadaudits", "ThemedSpinnerX", "xText", "Tex", "sle", "Pro", "Loa",
        ], seed: 0x5EED_F1A6)
        var random = SeededRandom(seed: 42)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let names = (0..<120).map { _ in
            String(letters[random.below(26)]).uppercased() + String((0..<(3 + random.below(6))).map { _ in letters[random.below(26)] }) + "Badge"
        }
        try checkFingerprints(groups: names.map { [$0] }, setAside: [], lookAlikes: names.map { String($0.dropLast(5)) } + names.map { $0 + "s" },
                              seed: 0xBADC0DE)
    }

    private func checkFingerprints(groups: [[String]], setAside: [[String]], lookAlikes: [String], seed: UInt64) throws {
        let fingerprinted = try XCTUnwrap(WordSieve(groups: groups, setAside: setAside))
        let plain = try XCTUnwrap(WordSieve(groups: groups, setAside: setAside, fingerprinted: false))
        XCTAssertTrue(fingerprinted.usesFingerprints)
        XCTAssertFalse(plain.usesFingerprints)
        let words = (groups + setAside).joined().flatMap { $0.split(separator: ".").map(String.init) }
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
            let (a, b) = text.withUnsafeBufferPointer { (fingerprinted.sighting(in: $0), plain.sighting(in: $0)) }
            XCTAssertEqual(a, b, String(decoding: text, as: UTF8.self))
            compared += 1
            if b != .none { found += 1 }
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
                XCTAssertFalse(wordScreen(before + "HUD" + after, short), "\(offset) HUD\(after)")
                XCTAssertFalse(wordScreen(before + "UX" + after, short), "\(offset) UX\(after)")
            }
            XCTAssertTrue(wordScreen(before + "ProgressHUD()", short), "\(offset) ProgressHUD")
            XCTAssertTrue(wordScreen(before + "HUDs", short), "\(offset) HUDs")
            XCTAssertTrue(wordScreen(before + "UXKit.Dots", short), "\(offset) UXKit")
        }
        let names = (0..<80).map { "LegacyWidget\($0)" }
        let many = RuleEngine(ruleSet: try RuleSetLoader.load(text: "version: 1\nrules:\n" + names.map {
            "  - id: \($0.lowercased())\n    component: \($0)\n    message: Gone.\n"
        }.joined(), file: "team.yml"))
        XCTAssertTrue(wordScreen("struct User {}\n", many))
        for name in [names[0], names[63], names[64], names[79]] { XCTAssertFalse(wordScreen("let w = \(name)()\n", many), name) }
        XCTAssertTrue(wordScreen("let w = LegacyWidget80()\n", many))
    }
}
