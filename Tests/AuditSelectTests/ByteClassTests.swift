@testable import AuditSelect
import CWordStarts
import LoadAuditTestSupport
import SwiftGrammar
import XCTest

/// One table of byte classes (`ByteClass.table`) for Swift and for the word screen's C loop: the C
/// code reads the table it is handed, and finds word starts exactly where the table puts them, on all
/// 256 bytes, on each of its ways through (byte by byte, sixteen at a time, sixteen at a time behind
/// the fingerprints), wherever a byte falls against the sixteen-byte blocks.
final class ByteClassTests: XCTestCase {
    /// The word starts of `bytes` where a byte with a bit of `wordClass` in `classes` is a word byte:
    /// the Swift view.
    private func expectedStarts(_ bytes: [UInt8], _ classes: [ByteClass], _ wordClass: ByteClass) -> [Int] {
        let isWord = { (byte: UInt8) in !classes[Int(byte)].isDisjoint(with: wordClass) }
        return bytes.indices.filter { isWord(bytes[$0]) && ($0 == 0 || !isWord(bytes[$0 - 1])) }
    }

    /// The word starts the C loop finds, every window a candidate (all start bits set, windows of one
    /// byte), looked for again from the byte after each one (so each look starts mid-text too).
    private func cStarts(_ bytes: [UInt8], _ classes: [ByteClass], _ wordClass: ByteClass, fingerprinted: Bool) -> [Int] {
        let nibbles = WordScreen.wordNibbles(of: classes, wordClass: wordClass)
        let startBits = [UInt64](repeating: .max, count: (1 << WordScreen.hashBits) / 64)
        // Fingerprints that let every position through: the blocks' word starts are all worked out.
        let passAll = [UInt8](repeating: 0xFF, count: Int(LOADAUDIT_FINGERPRINT_BYTES))
        var starts: [Int] = []
        classes.withUnsafeBufferPointer { $0.withMemoryRebound(to: UInt8.self) { classes in
            nibbles.withUnsafeBufferPointer { nibbles in
                startBits.withUnsafeBufferPointer { startBits in
                    passAll.withUnsafeBufferPointer { passAll in
                        var look = loadaudit_look(classes: classes.baseAddress!, word_class: wordClass.rawValue, word_nibbles: nibbles.baseAddress!,
                                                  start_bits: startBits.baseAddress!, window_mask: 0xFF, hash_bits: Int32(WordScreen.hashBits),
                                                  window_length: 1, fingerprints: fingerprinted ? passAll.baseAddress! : nil)
                        var from = 0, slot = 0
                        while true {
                            let start = loadaudit_next_word_start(bytes, bytes.count, from, &look, &slot)
                            if start < 0 { break }
                            starts.append(start)
                            from = start + 1
                        }
                    }
                }
            }
        } }
        return starts
    }

    /// Texts that put each of the 256 bytes at every offset of two blocks, before and after a word
    /// byte and a byte that is none, and in files too short for a block; then all 256 bytes shuffled
    /// together, so that each meets many others.
    private func texts() -> [[UInt8]] {
        var texts: [[UInt8]] = []
        for byte in UInt8.min...UInt8.max {
            for offset in 0..<66 {
                texts.append([UInt8](repeating: 0x20, count: offset) + [byte, 0x61, byte, 0x20, byte, byte] + [UInt8](repeating: 0x3D, count: 20))
            }
            texts += [[byte], [byte, 0x61], [0x61, byte], [0x20, byte, 0x5F, byte]]
        }
        var random = SeededRandom(seed: 0xB17E_C1A5)
        for _ in 0..<40 {
            var all = Array(UInt8.min...UInt8.max)
            for index in all.indices.reversed() { all.swapAt(index, random.below(index + 1)) }
            texts.append(all)
        }
        return texts
    }

    private func checkTheCLoop(_ classes: [ByteClass], _ wordClass: ByteClass, _ what: String) {
        for text in texts() {
            let expected = expectedStarts(text, classes, wordClass)
            XCTAssertEqual(cStarts(text, classes, wordClass, fingerprinted: false), expected, "\(what): \(text)")
            XCTAssertEqual(cStarts(text, classes, wordClass, fingerprinted: true), expected, "\(what), fingerprinted: \(text)")
        }
    }

    func testTheCLoopsWordBytesAreTheTables() {
        checkTheCLoop(ByteClass.table, .nameStart, "the word screen's word bytes")
    }

    /// The C code has no word bytes of its own: handed another table, or another class of this one,
    /// it follows them (were it to test letters itself, these would fail).
    func testTheCLoopReadsTheTableItIsHanded() {
        checkTheCLoop(ByteClass.table, .digit, "digits")
        checkTheCLoop(ByteClass.table, .operatorCharacter, "operator characters")
        var random = SeededRandom(seed: 7)
        let randomTable = (0..<256).map { _ in ByteClass(rawValue: random.chance(50) ? 1 : 0) }
        checkTheCLoop(randomTable, ByteClass(rawValue: 1), "a random table")
    }

    /// The table against Swift's own character classes, for the ASCII bytes, and every byte of a
    /// multi-byte character a name byte.
    func testTheTableIsSwiftsBytes() {
        for byte in UInt8.min...UInt8.max {
            let classes = ByteClass.of(byte)
            guard byte < 0x80 else {
                XCTAssertEqual(classes, [.name, .nameStart], "\(byte)")
                continue
            }
            let character = Character(Unicode.Scalar(byte))
            XCTAssertEqual(classes.contains(.digit), character.isWholeNumber, "\(character)")
            XCTAssertEqual(classes.contains(.uppercase), character.isLetter && character.isUppercase, "\(character)")
            XCTAssertEqual(classes.contains(.lowercase), character.isLetter && character.isLowercase, "\(character)")
            XCTAssertEqual(classes.contains(.nameStart), character.isLetter || character == "_", "\(character)")
            XCTAssertEqual(classes.contains(.name), character.isLetter || character.isWholeNumber || character == "_", "\(character)")
        }
    }
}
