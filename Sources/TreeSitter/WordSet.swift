/// Words to find in sources, made once (a rules file's walk words: the rule engine's and the
/// rotating-text reader's) and looked for in each parsed file: `WordOffsets(source, words:)`. Made
/// distinct and non-empty here once, where the plain way (`WordOffsets.plainStarts`) made a `Set` of
/// them through a generic, unspecialized path on every file. Each word is then found with memchr and
/// memcmp, as before (a one-pass look at every byte with a table of the words' first two bytes was
/// tried: it cost more instructions on the corpus than thirty-odd memchr passes). `ReaderShortcutTests`
/// compares it with the plain way on generated text and on the fixtures (docs/speed.md).
public struct WordSet: Sendable {
    /// The distinct words, not empty, sorted (any order finds the same offsets).
    let words: [[UInt8]]

    public init(_ words: some Sequence<[UInt8]>) {
        self.words = Set(words.filter { !$0.isEmpty }).sorted { $0.lexicographicallyPrecedes($1) }
    }

    public var isEmpty: Bool { words.isEmpty }

    /// Every offset where one of the words starts in `bytes` (overlapping ones too), sorted, each once.
    func starts(in bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        for word in words {
            SourceText.forEachOccurrence(of: word, in: bytes) { offset in
                offsets.append(offset)
                return true
            }
        }
        guard words.count > 1 else { return offsets }
        offsets.sort()
        var distinct: [Int] = []
        distinct.reserveCapacity(offsets.count)
        for offset in offsets where distinct.last != offset { distinct.append(offset) }
        return distinct
    }
}
