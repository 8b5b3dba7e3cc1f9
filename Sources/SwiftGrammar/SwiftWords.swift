/// What a word is in Swift source: the one definition of a name byte and of a whole word, for every
/// step that reads bytes (the rules' matching, the rotating-text facts, the prefilter's lexer).
public enum SwiftWords {
    /// Letters, digits, `_`, and every byte of a multi-byte character (Swift allows many in names).
    public static let isNameByte: [Bool] = (0..<256).map { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
    }

    /// Whether `range` of `bytes` is a whole word: no name byte just before or just after it. The
    /// grammar's error recovery can take a name out of a longer word (after a modifier it reads
    /// `final classThemedSpinner` as `class ThemedSpinner`, `casecase` as two `case`s): no compiler
    /// sees a name there, and such a name is no use of anything. (The prefilter's tokenizer starts no
    /// word at a digit, so it may take more for whole words than this does: it never takes fewer.)
    public static func isWholeWord(_ range: Range<Int>, in bytes: [UInt8]) -> Bool {
        !(range.lowerBound > 0 && isNameByte[Int(bytes[range.lowerBound - 1])])
            && !(range.upperBound < bytes.count && isNameByte[Int(bytes[range.upperBound])])
    }
}
