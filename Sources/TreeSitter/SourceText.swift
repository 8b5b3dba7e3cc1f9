#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AuditModel

/// The UTF-8 bytes a tree was parsed from, with a line index for turning byte offsets into positions
/// that people read: 1-based lines, and 1-based columns that count Unicode code points (a tab is one).
public struct SourceText: Sendable {
    /// Whether the bytes contain `needle`.
    public func contains(_ needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        var found = false
        forEachOccurrence(of: needle) { _ in
            found = true
            return false
        }
        return found
    }

    /// The offset of every occurrence of `needle`, overlapping ones too, in order, until `body` returns
    /// false. With memchr for the first byte, then memcmp: glibc's memmem is not visible to Swift
    /// without _GNU_SOURCE.
    public func forEachOccurrence(of needle: [UInt8], _ body: (Int) -> Bool) {
        Self.forEachOccurrence(of: needle, in: bytes, body)
    }

    static func forEachOccurrence(of needle: [UInt8], in bytes: [UInt8], _ body: (Int) -> Bool) {
        guard let head = needle.first, needle.count <= bytes.count else { return }
        bytes.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { pattern in
                let base = haystack.baseAddress!
                let last = haystack.count - pattern.count
                var position = 0
                while position <= last {
                    guard let hit = memchr(base + position, Int32(head), last - position + 1) else { return }
                    let offset = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + offset, pattern.baseAddress!, pattern.count) == 0, !body(offset) { return }
                    position = offset + 1
                }
            }
        }
    }

    public let bytes: [UInt8]
    /// Byte offset where each line starts; line N (1-based) starts at `lineStarts[N - 1]`.
    public let lineStarts: [Int]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var position = 0
            while position < buffer.count, let hit = memchr(base + position, 0x0A, buffer.count - position) {
                position = base.distance(to: UnsafeRawPointer(hit)) + 1
                starts.append(position)
            }
        }
        lineStarts = starts
    }

    public init(_ string: String) {
        self.init(bytes: Array(string.utf8))
    }

    public var lineCount: Int { lineStarts.count }

    public var hasByteOrderMark: Bool { bytes.starts(with: [0xEF, 0xBB, 0xBF]) }

    /// The line and column of a byte offset. Offsets inside a multi-byte character resolve to it.
    public func position(ofByte offset: Int) -> TextPosition {
        let clamped = min(max(offset, 0), bytes.count)
        let lineIndex = lineIndex(containing: clamped)
        var column = 1
        var cursor = lineStarts[lineIndex]
        while cursor < clamped {
            if bytes[cursor] & 0xC0 != 0x80 { column += 1 }
            cursor += 1
        }
        // A continuation byte at the clamped offset means we stopped mid-character: count it as that character.
        if clamped < bytes.count, bytes[clamped] & 0xC0 == 0x80, column > 1 { column -= 1 }
        // A byte-order mark is invisible in editors: it takes no column.
        if lineIndex == 0, hasByteOrderMark, clamped >= 3 { column -= 1 }
        return TextPosition(line: lineIndex + 1, column: column)
    }

    /// The bytes of a 1-based line without its terminator (`\n` or `\r\n`).
    public func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
        guard line >= 1, line <= lineStarts.count else { return [] }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return bytes[start..<max(start, end)]
    }

    public func lineText(_ line: Int) -> String {
        let slice = lineBytes(line)
        let visible = line == 1 && hasByteOrderMark ? slice.dropFirst(3) : slice
        return String(decoding: visible, as: UTF8.self)
    }

    public func text(_ range: Range<Int>) -> String {
        let lower = min(max(range.lowerBound, 0), bytes.count)
        let upper = min(max(range.upperBound, lower), bytes.count)
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }

    private func lineIndex(containing offset: Int) -> Int {
        max(lineStarts.partitioningIndex { $0 > offset } - 1, 0)
    }
}

/// A 1-based line and a 1-based column counted in Unicode code points.
public struct TextPosition: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: TextPosition, rhs: TextPosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// Where some words start in a source. A walk that looks only for nodes holding one of the words
/// skips every subtree whose range holds none: walking whole trees is most of the work on a parsed file.
public struct WordOffsets: Sendable {
    /// Sorted byte offsets.
    private let offsets: [Int]
    private let everywhere: Bool

    /// WordOffsets that every range holds: a walk that skips nothing (to check the skipping against).
    public static let everywhere = WordOffsets(everywhere: true)

    private init(everywhere: Bool) {
        offsets = []
        self.everywhere = everywhere
    }

    /// The plain way, a pass over the source for each word: for a word or two (a suppression's marker).
    public init(_ source: SourceText, words: some Sequence<[UInt8]>) {
        everywhere = false
        offsets = Self.plainStarts(source, words: words)
    }

    /// Many words made distinct once into a `WordSet` (the rules' and the rotating-text walks).
    public init(_ source: SourceText, words: WordSet) {
        everywhere = false
        offsets = words.starts(in: source.bytes)
    }

    /// Where the words start, each word's occurrences with memchr and memcmp, sorted.
    static func plainStarts(_ source: SourceText, words: some Sequence<[UInt8]>) -> [Int] {
        var offsets: [Int] = []
        for word in Set(words) {
            source.forEachOccurrence(of: word) { offset in
                offsets.append(offset)
                return true
            }
        }
        return offsets.sorted()
    }

    /// The sorted offsets (for tests).
    var startOffsets: [Int] { offsets }

    /// Whether one of the words starts inside `range`.
    public func anyStart(in range: Range<Int>) -> Bool {
        if everywhere { return true }
        let low = offsets.partitioningIndex { $0 >= range.lowerBound }
        return low < offsets.count && offsets[low] < range.upperBound
    }
}
