#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Words to find in sources, made once (a rules file's walk words: the rule engine's and the
/// rotating-text reader's) and looked for in each parsed file: `WordOffsets(source, words:)`. Made
/// distinct and non-empty here once, where the plain way (`WordOffsets.plainStarts`) made a `Set` of
/// them through a generic, unspecialized path on every file. The words are grouped by their first
/// byte: one memchr pass per first byte, and at each hit the group's words compared in place (the
/// plain way ran a memchr pass per word and called memcmp at every hit of its first byte: `t` or `T`
/// starts several words and is in every line of code). A one-pass look at every byte with a table of
/// the words' first two bytes was tried: it cost more instructions on the corpus than the memchr
/// passes. `ReaderShortcutTests` compares it with the plain way on generated text and on the
/// fixtures (docs/speed.md).
public struct WordSet: Sendable {
    /// The distinct words, not empty, sorted (any order finds the same offsets).
    let words: [[UInt8]]
    /// The words by their first byte: each group's first byte, and its words without that byte.
    private let groups: [(head: UInt8, tails: [[UInt8]])]

    public init(_ words: some Sequence<[UInt8]>) {
        self.words = Set(words.filter { !$0.isEmpty }).sorted { $0.lexicographicallyPrecedes($1) }
        var groups: [(head: UInt8, tails: [[UInt8]])] = []
        for word in self.words {
            let tail = Array(word.dropFirst())
            if let last = groups.indices.last, groups[last].head == word[0] {
                groups[last].tails.append(tail)
            } else {
                groups.append((word[0], [tail]))
            }
        }
        self.groups = groups
    }

    public var isEmpty: Bool { words.isEmpty }

    /// Every offset where one of the words starts in `bytes` (overlapping ones too), sorted, each once.
    func starts(in bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = buffer.count
            for group in groups {
                var position = 0
                while position < count, let hit = memchr(base + position, Int32(group.head), count - position) {
                    let offset = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                    // One word of the group starting here is enough: the groups' first bytes differ, so
                    // no offset is found twice.
                    for tail in group.tails where Self.follows(tail, at: offset + 1, in: base, count: count) {
                        offsets.append(offset)
                        break
                    }
                    position = offset + 1
                }
            }
        }
        if groups.count > 1 { offsets.sort() }
        return offsets
    }

    /// Whether `tail` is at `start` of the `count` bytes at `base`.
    @inline(__always)
    private static func follows(_ tail: [UInt8], at start: Int, in base: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard start + tail.count <= count else { return false }
        return tail.withUnsafeBufferPointer { tail in
            var index = 0
            while index < tail.count {
                if base[start + index] != tail[index] { return false }
                index += 1
            }
            return true
        }
    }
}
