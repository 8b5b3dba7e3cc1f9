import Foundation
import LoadAuditTestSupport
@testable import AuditRotation
import AuditRules
import CTreeSitter
import SwiftGrammar
@testable import TreeSitter
import XCTest

/// The analysis's shortcuts (docs/speed.md, "The analysis of parsed files") give what the plain way
/// gives: the walk words made distinct once (`WordSet`), a field's child by its number from the table
/// made once, a plain name read on its bytes. Each is compared with the plain way on generated input
/// and on every fixture.
final class ReaderShortcutTests: XCTestCase {
    /// Every offset a word starts at, found with the words made once, is one the plain way finds
    /// (the words made a set on every file), and the other way round: words sharing first bytes, one-byte words,
    /// words longer than the text, overlapping and repeated words, non-ASCII bytes.
    func testTheWordsAWordSetFindsAreThePlainWays() throws {
        var random = SeededRandom(seed: 11)
        let alphabet: [UInt8] = Array("aabTtx.(é".utf8) + [0x00, 0xFF]
        var found = 0
        for _ in 0..<2_000 {
            let text = (0..<random.below(200)).map { _ in random.pick(alphabet) }
            let words = (0..<random.below(8)).map { _ in (0..<random.below(5)).map { _ in random.pick(alphabet) } }
            let source = SourceText(bytes: text)
            let fast = WordOffsets(source, words: WordSet(words)).startOffsets
            let plain = Array(Set(WordOffsets.plainStarts(source, words: words))).sorted()
            XCTAssertEqual(fast, plain, "\(words) in \(text)")
            found += fast.count
        }
        XCTAssertGreaterThan(found, 10_000)
        // The rotating-text walk's words on every fixture.
        let vocabulary = try XCTUnwrap(RuleEngine(ruleSet: .builtIn()).selectionNeeds.rotation)
        let words = RotationReader.walkWords(vocabulary)
        XCTAssertGreaterThan(words.count, 10)
        for source in fixtureSwiftSources() {
            XCTAssertEqual(WordOffsets(source, words: WordSet(words)).startOffsets, Array(Set(WordOffsets.plainStarts(source, words: words))).sorted())
        }
    }

    /// A field's child by the number from the grammar's table is the child the C library finds by the
    /// field's name, for every field of the grammar at every node of every fixture; a name that is no
    /// field gives no child either way.
    func testAFieldsChildByItsNumberIsTheChildByItsName() throws {
        let fields = Array(Language.swift.fieldIDs.keys) + ["no_such_field", ""]
        XCTAssertGreaterThan(fields.count, 20)
        var children = 0
        for source in fixtureSwiftSources() {
            try Parser().parse(source).rootNode.walk { node in
                for field in fields {
                    let fast = node.child(byField: field), plain = node.childAskingByName(field: field)
                    XCTAssertEqual(fast, plain, "\(field) of \(node)")
                    if fast != nil { children += 1 }
                }
                return true
            }
        }
        XCTAssertGreaterThan(children, 10_000)
    }

    /// A field's number looked up by its bytes (`FieldTable`) is the C library's for every field name
    /// of the grammar and for generated names around them (prefixes, suffixes, one byte changed,
    /// non-ASCII, empty), and a table of generated names (many sharing length, first and last byte,
    /// so slots collide) finds each of its names and no other, as a dictionary does.
    func testAFieldsNumberByItsBytesIsTheCLibrarys() {
        let language = Language.swift
        let names = Array(language.fieldIDs.keys)
        var random = SeededRandom(seed: 17)
        // No name holding a NUL: the C library compares with strncmp, which stops there, then reads the
        // byte after the field's own terminator, so its answer is whatever the memory layout holds (it
        // differed under AddressSanitizer). The table's answer is nil: no field has that name.
        XCTAssertNil(language.fields.id(of: "name\u{0}"))
        var candidates = names + ["", "é", "nam", "namee", "Name", "_name"]
        for _ in 0..<5_000 {
            var bytes = Array(random.pick(names).utf8)
            switch random.below(4) {
            case 0: bytes.removeLast(random.below(bytes.count))
            case 1: bytes += Array(random.pick(names).utf8.prefix(random.below(4)))
            case 2: bytes[random.below(bytes.count)] = random.pick(Array("aez_.Ae".utf8))
            default: bytes.insert(contentsOf: Array("é".utf8), at: random.below(bytes.count + 1))
            }
            candidates.append(String(decoding: bytes, as: UTF8.self))
        }
        var found = 0
        for name in candidates {
            let plain = ts_language_field_id_for_name(language.pointer, name, UInt32(name.utf8.count))
            XCTAssertEqual(language.fields.id(of: name), plain == 0 ? nil : plain, name.debugDescription)
            if plain != 0 { found += 1 }
        }
        XCTAssertGreaterThan(found, names.count + 100)

        let alphabet = Array("abc_".utf8)
        let generated = Set((0..<300).map { _ in String(decoding: (0..<(1 + random.below(4))).map { _ in random.pick(alphabet) }, as: UTF8.self) })
        var numbers: [String: TSFieldId] = [:]
        for (index, name) in generated.sorted().enumerated() { numbers[name] = TSFieldId(index + 1) }
        let table = FieldTable(numbers.map { (name: $0.key, id: $0.value) })
        for _ in 0..<5_000 {
            let name = String(decoding: (0..<random.below(6)).map { _ in random.pick(alphabet) }, as: UTF8.self)
            XCTAssertEqual(table.id(of: name), numbers[name], name)
        }
        for (name, number) in numbers { XCTAssertEqual(table.id(of: name), number, name) }
    }

    /// A name read on its bytes is plain exactly when the plain way says so: `$` prefixes, backticks,
    /// digits, non-ASCII, blanks, punctuation, empty names.
    func testAPlainNameOnItsBytesIsThePlainWays() {
        var random = SeededRandom(seed: 5)
        let pieces = ["$", "`", "a", "Z", "_", "0", "9", "é", "🙂", " ", ".", "-", "(", "\u{0}"]
        var plain = 0
        for _ in 0..<20_000 {
            let name = (0..<random.below(7)).map { _ in random.pick(pieces) }.joined()
            XCTAssertEqual(RotationReader.isPlainName(name), RotationReader.plainIsPlainName(name), name.debugDescription)
            if RotationReader.isPlainName(name) { plain += 1 }
        }
        XCTAssertGreaterThan(plain, 1_000)
    }
}
