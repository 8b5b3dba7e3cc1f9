@testable import AuditSelect
import AuditRules
import LoadAuditTestSupport
@testable import SwiftGrammar
import XCTest

/// The first look's shortcuts against the plain way, on generated input: the closer reading that notes
/// only the names it is asked about (`NameInterest`) and stops once a parse is settled, the determinate-call watch's bit filter, the
/// text check's ASCII skip in C, and the manifest test by bytes. Each must answer exactly as the plain
/// way does (a broken shortcut fails here: checked once with a deliberate mutation of each).
final class FirstLookShortcutTests: XCTestCase {
    private let engine = RuleEngine(ruleSet: .builtIn())

    /// The words the generated code is made of: every word the select step asks about (trigger words;
    /// the rotating-text rules' words, determinate progress and its style modifier), and others.
    private lazy var triggerWords: [String] = {
        Set(engine.selectionNeeds.triggerWords.flatMap { WordSet.identifiers(of: $0).map { String(decoding: $0, as: UTF8.self) } }).sorted()
    }()
    private lazy var rotationWords: [String] = {
        let needs = engine.selectionNeeds
        var words = Set<String>()
        if let rotation = needs.rotation {
            for word in rotation.clockCalls.union(rotation.receivers).union(rotation.publishers.keys).union(rotation.displayNames)
                .union(rotation.displayProperties).union(rotation.observableState).union(rotation.randomPicks) {
                words.formUnion(WordSet.identifiers(of: word).map { String(decoding: $0, as: UTF8.self) })
            }
        }
        words.formUnion(needs.determinateLabels.keys)
        words.formUnion(needs.determinateStyles.keys)
        return words.sorted()
    }()
    private var askedWords: [String] { triggerWords + rotationWords }
    private let otherWords = ["value", "total", "timerInterval", "linear", "circular", "init", "self", "model", "tips", "index", "let", "var",
                              "func", "struct", "body", "some", "View", "Int", "count", "loadaudit", "ignore", "x", "isOn"]

    /// Swift-like code from `random`: names, calls, closures, subscripts, strings with interpolations,
    /// comments, attributes, operators; brackets balanced, so that most texts are read to the end.
    private func code(_ random: inout SeededRandom, depth: Int = 0) -> String {
        var text = ""
        for _ in 0..<(1 + random.below(depth == 0 ? 30 : 6)) {
            switch random.below(20) {
            case 0: text += random.pick(triggerWords)
            case 1...5: text += random.pick(rotationWords)
            case 6...8: text += random.pick(otherWords)
            case 9: text += depth < 3 ? "(" + code(&random, depth: depth + 1) + ")" : "()"
            case 10: text += depth < 3 ? " { " + code(&random, depth: depth + 1) + " }" : "{}"
            case 11: text += depth < 3 ? "[" + code(&random, depth: depth + 1) + "]" : "[]"
            case 12: text += random.pick([".", ", ", ": ", "@", " = ", " += ", " == ", "?", "!", " & ", "?.", " -> ", "#if DEBUG\n", "#endif\n"])
            case 13: text += "\"" + random.pick(askedWords) + " \\(" + random.pick(rotationWords) + ")\""
            case 14: text += "// " + random.pick(askedWords) + " " + random.pick(otherWords) + "\n"
            case 15: text += "/* " + random.pick(askedWords) + " */"
            case 16: text += random.pick(["value: ", "total: ", "timerInterval: ", ".linear", ".init(", "\n"])
            case 17: text += "\n    "
            default: text += " "
            }
        }
        return text
    }

    private func texts(seed: UInt64, count: Int = 1500) -> [[UInt8]] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in Array(code(&random).utf8) }
    }

    /// A view's body with a call of progress (determinate or not) and perhaps a style modifier, among
    /// other code.
    private func progressTexts(seed: UInt64, count: Int = 1500) -> [[UInt8]] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            let call = "ProgressView(" + random.pick(["value: x", "value: x, total: 2", "timerInterval: r", "\"a\", value: v", "x"]) + ")"
            let style = random.chance(40) ? ".progressViewStyle(" + random.pick([".linear", ".circular", "ThemedSpinnerStyle()", "s"]) + ")" : ""
            let before = code(&random, depth: 2), after = random.chance(50) ? code(&random, depth: 2) : ""
            return Array(("var body: some View {\n" + before + "\n" + call + style + "\n" + after + "\n}\n").utf8)
        }
    }

    /// The reading that notes only the asked names holds exactly the full reading's names among them,
    /// and gives up exactly where it does.
    func testTheReadingOfTheAskedNamesIsTheFullReadingsPart() throws {
        let selector = FileSelector(engine.selectionNeeds)
        let asked = try XCTUnwrap(selector.askedNames)
        var read = 0, noted = 0
        for text in texts(seed: 0xF125_7100) {
            let full = CodeWords(bytes: text, determinate: selector.determinateWatch, noting: nil)
            let part = CodeWords(bytes: text, determinate: selector.determinateWatch, noting: asked)
            let shown = String(decoding: text, as: UTF8.self)
            XCTAssertEqual(full == nil, part == nil, shown)
            guard let full, let part else { continue }
            read += 1
            XCTAssertEqual(part.code, full.code.intersection(asked.names), shown)
            XCTAssertEqual(part.comments, full.comments.intersection(asked.names), shown)
            XCTAssertEqual(part.positions.called, full.positions.called.intersection(asked.names), shown)
            XCTAssertEqual(part.positions.setAfterDot, full.positions.setAfterDot.intersection(asked.names), shown)
            XCTAssertEqual(part.positions.marked, full.positions.marked.intersection(asked.names), shown)
            XCTAssertEqual(part.onlyInDeterminateCalls, full.onlyInDeterminateCalls, shown)
            if !part.positions.called.isEmpty, !part.positions.marked.isEmpty, !part.comments.isEmpty { noted += 1 }
            // Names the screen never asks about are left out.
            XCTAssertTrue(part.code.isSubset(of: asked.names))
        }
        XCTAssertGreaterThan(read, 1000, "most generated texts are read to the end")
        XCTAssertGreaterThan(noted, 60, "the texts put asked names in every position")
    }

    /// The decision with the shortcuts is the decision with the full reading (every name noted, every
    /// name looked up in the determinate watch), with the rotating-text rules and without them.
    func testTheDecisionIsThePlainWays() throws {
        var componentsOnly = RuleSet.builtIn()
        componentsOnly.apply(severities: ["rotating-loading-message": nil])
        for (index, engine) in [self.engine, RuleEngine(ruleSet: componentsOnly)].enumerated() {
            let selector = FileSelector(engine.selectionNeeds)
            var plain = selector
            plain.askedNames = nil
            plain.determinateWatch?.watchedBits = .max
            plain.stopsEarly = false
            var decisions: [FileDecision: Int] = [:]
            for text in texts(seed: 0xDEC1_DE00 + UInt64(index)) + progressTexts(seed: 0x9A0_6E55 + UInt64(index)) {
                let decision = selector.decide(text, path: "Screen.swift")
                XCTAssertEqual(decision, plain.decide(text, path: "Screen.swift"), String(decoding: text, as: UTF8.self))
                decisions[decision, default: 0] += 1
            }
            XCTAssertGreaterThan(decisions[.parse, default: 0], 100, "\(decisions)")
            XCTAssertGreaterThan(decisions[index == 0 ? .later : .skip, default: 0], 100, "\(decisions)")
        }
    }

    /// `ProgressView(value: x)` alone holds nothing to report: the watch's bit filter must find every
    /// watched name the dictionary lookup finds.
    func testTheDeterminateWatchsBitsMissNoWatchedName() throws {
        let selector = FileSelector(engine.selectionNeeds)
        let watch = try XCTUnwrap(selector.determinateWatch)
        var plain = watch
        plain.watchedBits = .max
        var determinate = 0
        for text in progressTexts(seed: 0xD7E2) {
            let fast = CodeWords(bytes: text, determinate: watch, noting: nil)
            let slow = CodeWords(bytes: text, determinate: plain, noting: nil)
            XCTAssertEqual(fast?.onlyInDeterminateCalls, slow?.onlyInDeterminateCalls, String(decoding: text, as: UTF8.self))
            if fast?.onlyInDeterminateCalls.isEmpty == false { determinate += 1 }
        }
        XCTAssertGreaterThan(determinate, 100)
    }

    /// The text check (`SourceBytes.problems`) passes over ASCII in C; it must find the first NUL and
    /// the first byte of no valid UTF-8 where a byte-by-byte look finds them, wherever they fall
    /// against the 16- and 32-byte blocks.
    func testTextProblemsAreTheByteByByteLooks() {
        func plain(_ bytes: [UInt8]) -> (firstNUL: Int?, firstInvalidUTF8: Int?) {
            bytes.withUnsafeBufferPointer { bytes in
                var index = 0
                var firstNUL: Int?, firstInvalid: Int?
                while index < bytes.count {
                    if bytes[index] < 0x80 {
                        if bytes[index] == 0, firstNUL == nil { firstNUL = index }
                        index += 1
                    } else if let width = SourceBytes.utf8SequenceWidth(bytes, at: index) {
                        index += width
                    } else {
                        if firstInvalid == nil { firstInvalid = index }
                        if firstNUL != nil { break }
                        index += 1
                    }
                }
                return (firstNUL, firstInvalid)
            }
        }
        let pieces: [[UInt8]] = [[0], [0xC3, 0xA9], [0xE2, 0x98, 0x95], [0xF0, 0x9F, 0x98, 0x80], [0xFF], [0x80], [0xC3], [0xED, 0xA0, 0x80],
                                 [0xE0, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF]]
        var random = SeededRandom(seed: 0x7E_C7)
        var found = (nul: 0, invalid: 0, neither: 0)
        for _ in 0..<4000 {
            var text: [UInt8] = []
            for _ in 0..<random.below(4) {
                text += (0..<random.below(70)).map { _ in UInt8(0x20 + random.below(0x5F)) }
                if random.chance(70) { text += random.pick(pieces) }
            }
            text += (0..<random.below(40)).map { _ in UInt8(0x20 + random.below(0x5F)) }
            let expected = plain(text)
            let got = FileSelector.textProblems(text)
            XCTAssertEqual(got.firstNUL, expected.firstNUL, "\(text)")
            XCTAssertEqual(got.firstInvalidUTF8, expected.firstInvalidUTF8, "\(text)")
            if expected.firstNUL != nil { found.nul += 1 }
            if expected.firstInvalidUTF8 != nil { found.invalid += 1 }
            if expected.firstNUL == nil, expected.firstInvalidUTF8 == nil { found.neither += 1 }
        }
        XCTAssertGreaterThan(found.nul, 300)
        XCTAssertGreaterThan(found.invalid, 400)
        XCTAssertGreaterThan(found.neither, 300)
        // Every offset against the blocks, a problem alone in long ASCII.
        for offset in 0..<80 {
            for piece in [[0], [0xFF], [0xC3]] as [[UInt8]] {
                let text = [UInt8](repeating: 0x61, count: offset) + piece + [UInt8](repeating: 0x62, count: 80 - offset)
                XCTAssertTrue(FileSelector.textProblems(text) == plain(text), "\(offset) \(piece)")
            }
        }
    }

    /// A manifest is told by its last path component's bytes first; the answer must be the
    /// character-by-character test's on paths made of manifest names, their look-alikes, slashes and
    /// characters that join a `/` into one character (a combining accent after it, a prepended mark
    /// before it).
    func testTheManifestTestByBytesIsTheTestByCharacters() {
        let pieces = ["Package.swift", "Package", "Package@swift-", "5.9", ".swift", "/", "/", "Sources", "Packages", "package.swift", "Pack",
                      "\u{301}", "\u{0600}", "é", "\r", "\n", "@", "-", "Pac\u{301}kage.swift", ""]
        var random = SeededRandom(seed: 0x9AC4)
        var manifests = 0
        var paths = ["", "/", "Package.swift", "a/Package.swift", "a/Package.swift/", "a//Package.swift//", "Package@swift-\u{0600}/5.swift",
                     "Package@swift-5/\u{301}.swift", "dir/\u{301}Package.swift", "Package@swift-5.9.swift", "x\u{0600}/Package.swift"]
        for _ in 0..<20000 { paths.append((0..<(1 + random.below(6))).map { _ in random.pick(pieces) }.joined()) }
        for path in paths {
            let plain = SwiftPackageManifest.isManifestByCharacters(path: path)
            XCTAssertEqual(SwiftPackageManifest.isManifest(path: path), plain, path.unicodeScalars.map { "\($0.value)" }.joined(separator: " "))
            if plain { manifests += 1 }
        }
        XCTAssertGreaterThan(manifests, 500)
        XCTAssertTrue(SwiftPackageManifest.isManifest(path: "Package@swift-\u{0600}/5.swift"), "a `/` joined to the mark before it splits nothing")
    }
}
