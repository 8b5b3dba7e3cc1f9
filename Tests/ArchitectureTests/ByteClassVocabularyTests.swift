import Foundation
import XCTest

/// Which byte is a letter, a digit, a name byte or an operator character is written once, in
/// SwiftGrammar's `ByteClass` (ByteClass.swift); the word screen's C loop reads that table. This
/// reads every Swift and C file of `Sources/` for what a second definition is made of: a comparison
/// with, or a range between, the bounds of the digits and letters (`byte >= 0x30`, `0x61...0x7A`,
/// `("A"..."Z")`), a character literal of them in C (`'a'`, `'_'`), a table of 256 flags, or the set of
/// operator characters.
final class ByteClassVocabularyTests: XCTestCase {
    static let sources = ModuleGraphTests.root.appendingPathComponent("Sources")
    /// The one definition.
    static let table = "SwiftGrammar/ByteClass.swift"
    /// Files that read another language: the baseline file's JSON, whose digits (and hex digits in
    /// `\u` escapes) are JSON's, in a module that sees no Swift grammar.
    static let otherLanguages: Set<String> = ["AuditBaseline/JSONLocator.swift"]

    static let patterns: [(what: String, regex: NSRegularExpression)] = [
        ("a comparison with a bound of the digits or letters", #"[<>]=? ?0x(30|39|41|5[Aa]|61|7[Aa])\b"#),
        ("a range from or to such a bound", #"0x(30|39|41|5[Aa]|61|7[Aa]) ?\.\.[.<] ?0x|\.\.[.<] ?0x(30|39|41|5[Aa]|61|7[Aa])\b"#),
        ("a range of characters", #""[0aA]" ?\.\.\. ?"[9zZ]""#),
        ("a character literal of a digit, a letter or `_` (C)", #"'[0-9A-Za-z_]'"#),
        ("a table of 256 flags", #"\[Bool\] = \(0"#),
        ("the operator characters", #"=-\+!\*%<>&\|\^~\?"#),
    ].map { ($0.0, try! NSRegularExpression(pattern: $0.1)) }

    /// The Swift and C files of Sources/, by path under it (the grammar's generated C left out).
    static func files() throws -> [String] {
        let all = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        return all.filter { ($0.hasSuffix(".swift") || $0.hasSuffix(".c") || $0.hasSuffix(".h")) && !$0.hasPrefix("CTreeSitterSwift/") }.sorted()
    }

    static func matches(in text: String) -> [String] {
        patterns.flatMap { pattern in
            pattern.regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
                "\(pattern.what): \(text[Range(match.range, in: text)!])"
            }
        }
    }

    func testOnlyTheTableDefinesByteClasses() throws {
        let files = try Self.files()
        XCTAssertTrue(files.contains("CWordStarts/word_starts.c"), "the C loop is read too")
        var found: [String] = []
        for file in files where file != Self.table && !Self.otherLanguages.contains(file) {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            found += Self.matches(in: text).map { "\(file): \($0)" }
        }
        XCTAssertEqual(found, [], "byte classes defined outside \(Self.table)")
    }

    /// The patterns find what they look for: in the table itself, in the exempted JSON reader, and in
    /// the kinds of code they were written against.
    func testThePatternsFindWhatIsThere() throws {
        let table = try String(contentsOf: Self.sources.appendingPathComponent(Self.table), encoding: .utf8)
        let inTable = Self.matches(in: table)
        for what in ["a comparison with a bound", "the operator characters"] {
            XCTAssertTrue(inTable.contains { $0.hasPrefix(what) }, "\(what) in \(Self.table): \(inTable)")
        }
        for file in Self.otherLanguages {
            XCTAssertFalse(Self.matches(in: try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)).isEmpty, file)
        }
        for code in [
            "while index < count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }",
            "word.utf8.allSatisfy { (0x61...0x7A).contains($0) }",
            #"("A"..."Z").contains(first)"#,
            "return (lower >= 'a' && lower <= 'z') || byte == '_' || byte >= 0x80;",
            "static let isNameByte: [Bool] = (0..<256).map { byte in",
            #""=-+!*%<>&|^~?".utf8.contains(UInt8(byte))"#,
        ] {
            XCTAssertFalse(Self.matches(in: code).isEmpty, code)
        }
        XCTAssertEqual(Self.matches(in: "second = (second ^ UInt64(byte ^ 0x5A)) &* prime; if byte == UInt8(ascii: \"_\") {}"), [])
    }
}
