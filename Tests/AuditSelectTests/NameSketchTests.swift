@testable import AuditSelect
import XCTest

/// The name sketch (`NameSketch`) against the whole-word search it stands in for (`NameSearch`): on
/// generated text, never "no" where the search says yes (every name of a text is held by its sketch;
/// a name that does not start with a capital is never ruled out), and "no" for most names a text does
/// not have (else it saves no reading).
final class NameSketchTests: XCTestCase {
    /// A deterministic generator (SplitMix64), so that a failure can be replayed.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }

    /// Pieces of names: letters, `_`, digits, multi-byte characters; joined, they make names of one
    /// byte to far past the sketch's length cap (33 bytes).
    private let namePieces = ["Status", "Editor", "Router", "Path", "x", "i", "_", "_a", "0", "12", "é", "café", "Δ", "View",
                              "Model", "publishStatusTaskStartDelayWeight", "Saving", "State", "AppAccountsSelectorView"]
    /// What stands between names: blanks, punctuation, comment and string marks, backticks, `$`, `@`.
    private let separators = [" ", "\n", ".", "(", ")", ": ", " = ", "//", "\"", "`", "$", "@", "{", "}\n", ", ", "\\(", "#", "\t"]

    private func name(_ generator: inout Generator) -> String {
        (0..<Int.random(in: 1...4, using: &generator)).map { _ in namePieces.randomElement(using: &generator)! }.joined()
    }

    private func text(_ generator: inout Generator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...160, using: &generator) {
            text += Bool.random(using: &generator) ? name(&generator) : separators.randomElement(using: &generator)!
        }
        return text
    }

    /// The names of `bytes` as `FileSelector.forEachName` reads them: runs of name bytes, after leading digits.
    private func names(of text: String) -> Set<String> {
        var names: Set<String> = []
        var current: [UInt8] = []
        func finish() {
            let name = current.drop { $0 >= 0x30 && $0 <= 0x39 }
            if !name.isEmpty { names.insert(String(decoding: name, as: UTF8.self)) }
            current = []
        }
        for byte in text.utf8 {
            let isName = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
            if isName { current.append(byte) } else { finish() }
        }
        finish()
        return names
    }

    func testTheSketchHoldsEveryNameTheSearchFinds() {
        var generator = Generator(state: 42)
        var searched = 0, foundByTheSearch = 0, ruledOut = 0, notFound = 0
        for _ in 0..<800 {
            let text = text(&generator)
            let bytes = Array(text.utf8)
            let sketch = NameSketch(bytes)
            // Each name the text has: the search finds it, and the sketch must not rule it out.
            let textNames = names(of: text).sorted()
            for name in textNames {
                let search = NameSearch([name], hashedAs: WordHash.ofWord)
                XCTAssertTrue(search.isMentioned(in: bytes), "the search misses \(name)")
                XCTAssertTrue(search.mayBeMentioned(in: sketch), "the sketch rules out \(name), which the text has: \(text.debugDescription)")
            }
            // Generated names, with and without the text: whenever the search says yes, so must the sketch.
            // Names that start with a capital (those a sketch holds), and now and then one that does not
            // (then the sketch cannot rule the text out).
            var asked = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                namePieces.filter { $0.first!.isUppercase }.randomElement(using: &generator)! + name(&generator)
            }
            let lowercase = Int.random(in: 0..<10, using: &generator) == 0
            if lowercase { asked.append("x" + name(&generator)) }
            // A third of the time, one of them is a name of the text (with or without a digit before it).
            if Int.random(in: 0..<3, using: &generator) == 0, let had = textNames.randomElement(using: &generator) {
                asked.append(Bool.random(using: &generator) ? had : "1" + had)
            }
            let search = NameSearch(asked, hashedAs: WordHash.ofWord)
            searched += 1
            if search.isMentioned(in: bytes) {
                foundByTheSearch += 1
                XCTAssertTrue(search.mayBeMentioned(in: sketch), "the sketch rules out one of \(asked) in \(text.debugDescription)")
            } else if lowercase {
                XCTAssertTrue(search.mayBeMentioned(in: sketch), "a name without a capital first is ruled out: \(asked)")
            } else {
                notFound += 1
                if !search.mayBeMentioned(in: sketch) { ruledOut += 1 }
            }
        }
        // The generated cases must try both answers, and the sketch must rule out most misses.
        XCTAssertGreaterThan(foundByTheSearch, searched / 10)
        XCTAssertGreaterThan(notFound, searched / 10)
        XCTAssertGreaterThan(Double(ruledOut), 0.5 * Double(notFound), "the sketch rules out \(ruledOut) of \(notFound) texts without the names")
    }

    /// Lengths around the vector loop's blocks (32 bytes, with the next 32 in view) and the length cap:
    /// a name at every offset of a text of padding.
    func testANameAtEveryOffsetIsHeld() {
        for name in ["Ab", "A_1", "Status", "StatusEditor", "PublishStatusTaskStartDelayWeight", "PublishStatusTaskStartDelayWeightAndMore", "Éa", "ab"] {
            let search = NameSearch([name], hashedAs: WordHash.ofWord)
            for length in [0, 1, 31, 32, 33, 63, 64, 65, 95, 96, 130] {
                for offset in 0...length {
                    var bytes = [UInt8](repeating: UInt8(ascii: " "), count: length)
                    bytes.insert(contentsOf: Array(name.utf8), at: offset)
                    // Name bytes right after the padding's last blank would join the name: keep a blank after it.
                    bytes.insert(UInt8(ascii: "."), at: offset + name.utf8.count)
                    XCTAssertTrue(search.isMentioned(in: bytes))
                    XCTAssertTrue(search.mayBeMentioned(in: NameSketch(bytes)), "\(name) at \(offset) of \(bytes.count) bytes")
                    // Longer by one byte on either side: another name, which the sketch should mostly rule out.
                }
            }
        }
    }
}
