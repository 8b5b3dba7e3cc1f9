import CWordStarts
import SwiftGrammar

/// What the select step knows of bytes before any parse: how names split after leading digits, and
/// whether a file is UTF-8 text without NUL bytes (the reader refuses the rest). Which byte is what
/// (a name byte, a digit) is Swift's own table, `ByteClass`.
enum SourceBytes {
    /// Where the name after a word's leading digits starts, and its hash; nil when the word does not
    /// start with a digit or is all digits. Shared with `CodeScanner`, which splits words the same way.
    static func nameAfterDigits(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> (start: Int, hash: UInt64)? {
        guard ByteClass.of(bytes[start]).contains(.digit) else { return nil }
        var letter = start
        while letter < end, ByteClass.of(bytes[letter]).contains(.digit) { letter += 1 }
        guard letter < end else { return nil }
        var hash = WordHash()
        for offset in letter..<end { hash.add(bytes[offset]) }
        return (letter, hash.value)
    }

    /// The length of the valid UTF-8 sequence starting at `index` (a non-ASCII lead byte), or nil:
    /// no overlong forms, no surrogates, nothing above U+10FFFF (as Swift's own decoder).
    static func utf8SequenceWidth(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        let width: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: width = 2
        case 0xE0: width = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: width = 3
        case 0xED: width = 3; high = 0x9F
        case 0xF0: width = 4; low = 0x90
        case 0xF1...0xF3: width = 4
        case 0xF4: width = 4; high = 0x8F
        default: return nil
        }
        guard index + width <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= low && second <= high else { return nil }
        for offset in 2..<max(2, width) where bytes[index + offset] & 0xC0 != 0x80 { return nil }
        return width
    }

    /// Where a file's text goes wrong: its first NUL byte and its first byte that is no valid UTF-8
    /// (nil: none). The ASCII between them is passed over in C (`loadaudit_next_nul_or_non_ascii`, 32
    /// bytes at a time); Swift's decoder's rules beyond.
    static func problems(_ bytes: UnsafeBufferPointer<UInt8>) -> (firstNUL: Int?, firstInvalidUTF8: Int?) {
        guard let base = bytes.baseAddress else { return (nil, nil) }
        let count = bytes.count
        var index = 0
        var firstNUL: Int?, firstInvalid: Int?
        while true {
            index = loadaudit_next_nul_or_non_ascii(base, count, index)
            guard index < count else { break }
            if bytes[index] == 0 {
                if firstNUL == nil { firstNUL = index }
                index += 1
            } else if let width = utf8SequenceWidth(bytes, at: index) {
                index += width
            } else {
                // The first bad byte; on to a NUL that makes the file binary.
                if firstInvalid == nil { firstInvalid = index }
                if firstNUL != nil { return (firstNUL, firstInvalid) }
                index += 1
            }
        }
        return (firstNUL, firstInvalid)
    }

    /// Whether the bytes are UTF-8 with no NUL byte.
    static func isTextWithoutNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let found = problems(bytes)
        return found.firstNUL == nil && found.firstInvalidUTF8 == nil
    }
}
