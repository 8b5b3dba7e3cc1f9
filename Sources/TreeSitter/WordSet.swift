/// Words to find in sources, made once (a rules file's walk words) and looked for in one pass over each
/// source: `WordOffsets` with them. The plain way (`WordOffsets.plainStarts`: each word's occurrences
/// with memchr and memcmp, then all sorted) reads a file once per word, thirty and more times for the
/// rotating-text words; here each byte is asked once whether a word starts with it and the byte after
/// it (a table of the words' first two bytes), and only then compared with those words.
/// `WordSetTests` compares both ways on generated text (docs/speed.md).
public struct WordSet: Sendable {
    /// The distinct words, not empty, grouped by their first byte.
    let words: [[UInt8]]
    /// Where each first byte's words start in `words` (257 entries: byte `b`'s are
    /// `bucketStarts[b]..<bucketStarts[b + 1]`).
    let bucketStarts: [Int]
    /// A bit for each pair of bytes a word of two bytes or more starts with (`b0 << 8 | b1`).
    let pairs: [UInt64]
    /// Bytes that are a word of one byte by themselves.
    let singles: [Bool]

    public init(_ words: some Sequence<[UInt8]>) {
        let distinct = Set(words.filter { !$0.isEmpty })
        // Sorted for a fixed order (any order finds the same offsets).
        let sorted = distinct.sorted { $0.lexicographicallyPrecedes($1) }
        var starts = [Int](repeating: 0, count: 257)
        for word in sorted { starts[Int(word[0]) + 1] += 1 }
        for byte in 0..<256 { starts[byte + 1] += starts[byte] }
        var pairs = [UInt64](repeating: 0, count: 1024)
        var singles = [Bool](repeating: false, count: 256)
        for word in sorted {
            if word.count == 1 {
                singles[Int(word[0])] = true
            } else {
                let pair = Int(word[0]) << 8 | Int(word[1])
                pairs[pair >> 6] |= 1 << UInt64(pair & 63)
            }
        }
        self.words = sorted
        bucketStarts = starts
        self.pairs = pairs
        self.singles = singles
    }

    public var isEmpty: Bool { words.isEmpty }

    /// Every offset where one of the words starts in `bytes` (overlapping ones too), sorted, each once.
    func starts(in bytes: [UInt8]) -> [Int] {
        var found: [Int] = []
        guard !words.isEmpty else { return found }
        bytes.withUnsafeBufferPointer { text in
            pairs.withUnsafeBufferPointer { pairs in
                singles.withUnsafeBufferPointer { singles in
                    bucketStarts.withUnsafeBufferPointer { buckets in
                        let count = text.count
                        var index = 0
                        while index < count {
                            let first = Int(text[index])
                            if singles[first] {
                                found.append(index)
                            } else if index + 1 < count {
                                let pair = first << 8 | Int(text[index + 1])
                                if pairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0, matches(text, at: index, bucket: buckets[first]..<buckets[first + 1]) {
                                    found.append(index)
                                }
                            }
                            index += 1
                        }
                    }
                }
            }
        }
        return found
    }

    /// Whether one of the words of a first byte's bucket starts at `index`.
    private func matches(_ text: UnsafeBufferPointer<UInt8>, at index: Int, bucket: Range<Int>) -> Bool {
        let left = text.count - index
        for slot in bucket {
            let word = words[slot]
            guard word.count <= left else { continue }
            var same = true
            var offset = 1
            while offset < word.count {
                if text[index + offset] != word[offset] {
                    same = false
                    break
                }
                offset += 1
            }
            if same { return true }
        }
        return false
    }
}
