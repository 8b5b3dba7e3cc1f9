/// What a word is in Swift source: the one definition of a whole word, for every step that reads
/// bytes (the rules' matching, the rotating-text facts, the select step's closer reading); its name bytes are
/// `ByteClass.name`.
public enum SwiftWords {
    /// Whether `range` of `bytes` is a whole word: no name byte just before or just after it. The
    /// grammar's error recovery can take a name out of a longer word (after a modifier it reads
    /// `final classThemedSpinner` as `class ThemedSpinner`, `casecase` as two `case`s): no compiler
    /// sees a name there, and such a name is no use of anything. (The select step's `CodeScanner` starts no
    /// word at a digit, so it may take more for whole words than this does: it never takes fewer.)
    public static func isWholeWord(_ range: Range<Int>, in bytes: [UInt8]) -> Bool {
        !(range.lowerBound > 0 && ByteClass.of(bytes[range.lowerBound - 1]).contains(.name))
            && !(range.upperBound < bytes.count && ByteClass.of(bytes[range.upperBound]).contains(.name))
    }

    /// Whether every byte of `text` is a name byte (and there is one).
    public static func isAllNameBytes<Bytes: Collection>(_ text: Bytes) -> Bool where Bytes.Element == UInt8 {
        !text.isEmpty && text.allSatisfy { ByteClass.of($0).contains(.name) }
    }

    /// Every run of name bytes in `bytes` (code, comments and strings alike), as text: what a file
    /// names anywhere, for a check that must err towards "still named" (the fix's import removal).
    public static func words(in bytes: [UInt8]) -> Set<String> {
        var words = Set<String>()
        var start: Int?
        for index in 0...bytes.count {
            let inWord = index < bytes.count && ByteClass.of(bytes[index]).contains(.name)
            if inWord, start == nil { start = index }
            if !inWord, let from = start {
                words.insert(String(decoding: bytes[from..<index], as: UTF8.self))
                start = nil
            }
        }
        return words
    }
}
