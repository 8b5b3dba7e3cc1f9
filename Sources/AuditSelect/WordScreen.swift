import SwiftGrammar
import CWordStarts
import Foundation

/// The cheapest look at a file: which groups of words all appear in it as whole words. Most files of
/// an app mention none of the words any rule asks about (no component, no clock with a display), and
/// the screen says so faster than any reading of the code (see `FileSelector.decide`). Any number of
/// words; a name of one byte, or one that does not start with a letter, `_` or a multi-byte
/// character (it looks only where a word starts), turns it off: every file then gets the closer reading.
///
/// "Whole word" is taken wide: no letter, `_` or byte of a multi-byte character right before the word,
/// no name byte right after it. A digit before it counts as a boundary, as `CodeScanner` takes the
/// name after a word's leading digits (`0Text` names `Text`). Comments and strings count: the screen
/// is a superset of the names in code, never a subset.
struct WordScreen: Sendable {
    /// Each group's words split into identifiers (`Timer.publish`: `Timer`, `publish`), all distinct.
    private let literals: [[UInt8]]
    /// The groups, as indices into `literals`: a group appears when all of its literals do.
    private let groups: [[Int]]
    /// For each literal, the groups it belongs to.
    private let groupsOfLiteral: [[Int]]
    /// How many bytes of a literal's start the screen hashes: four, or the shortest literal's length.
    private let windowLength: Int
    /// The bits of those bytes in a four-byte load.
    private let windowMask: UInt32
    /// A bit per hash of a window, set for each literal's first `windowLength` bytes: 8 KB, so that a
    /// chance hit (a window that starts no literal) costs a look at the literals about once in 2,000
    /// bytes for the built-in rules.
    private let startBits: [UInt64]
    /// Each literal's hash of its first `windowLength` bytes.
    private let startSlots: [Int]
    /// The literals' first three bytes as nibble tables (`loadaudit_fingerprints_build`); nil when a
    /// literal is shorter. Only a word start that passes them is hashed (most 16-byte blocks hold none).
    private let fingerprints: [UInt8]?
    var usesFingerprints: Bool { fingerprints != nil }
    /// The byte classes (`ByteClass.table`, shared, not copied) and the C loop's nibble tables of its
    /// word bytes (`ByteClass.nameStart`), built from them.
    private let classes = ByteClass.table
    private let wordNibbles = WordScreen.wordNibbles(of: ByteClass.table, wordClass: .nameStart)

    static let hashBits = 16

    /// Nil when the words do not suit the screen: an identifier of one byte.
    init?(groups wordGroups: [[String]], fingerprinted: Bool = true) {
        var literals: [[UInt8]] = []
        var groups: [[Int]] = []
        for words in wordGroups {
            let parts = words.map(WordSet.identifiers(of:))
            // A word without a name in it is mentioned by no file (`WordFilter.mayContain`).
            guard !parts.contains(where: \.isEmpty) else { continue }
            var group: [Int] = []
            for part in parts.joined() {
                // The screen looks only where a word starts (`loadaudit_next_word_start`).
                guard part.count >= 2, Self.startsAWord(part[0]) else { return nil }
                let index = literals.firstIndex(of: part) ?? literals.endIndex
                if index == literals.endIndex { literals.append(part) }
                if !group.contains(index) { group.append(index) }
            }
            groups.append(group)
        }
        windowLength = min(4, literals.map(\.count).min() ?? 4)
        var groupsOfLiteral = [[Int]](repeating: [], count: literals.count)
        for (index, group) in groups.enumerated() { for literal in group { groupsOfLiteral[literal].append(index) } }
        var startBits = [UInt64](repeating: 0, count: (1 << Self.hashBits) / 64)
        windowMask = Self.mask(windowLength)
        startSlots = literals.map { [windowMask] literal in
            literal.withUnsafeBufferPointer { Int(loadaudit_window_hash($0.baseAddress!, $0.count, 0, windowMask, Int32(Self.hashBits))) }
        }
        for slot in startSlots { startBits[slot >> 6] |= 1 << UInt64(slot & 63) }
        fingerprints = fingerprinted ? Self.fingerprints(of: literals) : nil
        self.literals = literals
        self.groups = groups
        self.groupsOfLiteral = groupsOfLiteral
        self.startBits = startBits
    }

    /// The nibble tables of the literals' first three bytes (`loadaudit_fingerprints_build`), nil when
    /// a literal is shorter. A byte triple passes when, at each of the three positions, its low and its
    /// high nibble both carry some bucket's bit, the same bucket throughout: literals of one bucket
    /// therefore let through every mix of their nibbles. Literals with the same first three bytes
    /// share a bucket, and of the rest the two groups whose mixes add the fewest triples are merged
    /// until eight are left (on apple-browsers' code, 7 % of 16-byte blocks then hold a possible start,
    /// against 22 % with the literals dealt out in turn). Beyond 32 distinct beginnings, neighbours in
    /// byte order are joined first, so that a rule set with hundreds of components costs no time to load.
    static func fingerprints(of literals: [[UInt8]]) -> [UInt8]? {
        guard literals.allSatisfy({ $0.count >= 3 }) else { return nil }
        let prefixes = Array(Set(literals.map { Array($0.prefix(3)) })).sorted { $0.lexicographicallyPrecedes($1) }
        var groups = NibbleGroup.merged(prefixes.map { NibbleGroup($0) }, into: 32)
        while groups.count > 8 {
            var best: (added: Int, first: Int, second: Int)?
            for first in groups.indices {
                for second in groups.indices where second > first {
                    let added = groups[first].joined(with: groups[second]).mixes - groups[first].mixes - groups[second].mixes
                    if best == nil || added < best!.added { best = (added, first, second) }
                }
            }
            let (_, first, second) = best!
            groups[first] = groups[first].joined(with: groups[second])
            groups.remove(at: second)
        }
        var bucketOfPrefix: [[UInt8]: UInt8] = [:]
        for (bucket, group) in groups.enumerated() { for prefix in group.prefixes { bucketOfPrefix[prefix] = UInt8(bucket) } }
        let buckets = literals.map { bucketOfPrefix[Array($0.prefix(3))]! }
        let joined = Array(literals.joined())
        let lengths = literals.map { $0.count }
        var masks = [UInt8](repeating: 0, count: Int(LOADAUDIT_FINGERPRINT_BYTES))
        masks.withUnsafeMutableBufferPointer { masks in
            loadaudit_fingerprints_build(masks.baseAddress!, joined, lengths, buckets, Int32(literals.count))
        }
        return masks
    }

    /// Prefixes that share a bucket, with the nibbles they have at each position (as bit sets).
    private struct NibbleGroup {
        var prefixes: [[UInt8]]
        var low: [UInt16]
        var high: [UInt16]

        init(_ prefix: [UInt8]) {
            prefixes = [prefix]
            low = prefix.map { 1 << UInt16($0 & 0x0F) }
            high = prefix.map { 1 << UInt16($0 >> 4) }
        }

        /// How many byte triples the bucket lets through.
        var mixes: Int { (0..<3).reduce(1) { $0 * low[$1].nonzeroBitCount * high[$1].nonzeroBitCount } }

        func joined(with other: NibbleGroup) -> NibbleGroup {
            var joined = self
            joined.prefixes += other.prefixes
            for position in 0..<3 {
                joined.low[position] |= other.low[position]
                joined.high[position] |= other.high[position]
            }
            return joined
        }

        /// At most `count` groups, neighbours in the given order joined in runs of even length.
        static func merged(_ groups: [NibbleGroup], into count: Int) -> [NibbleGroup] {
            guard groups.count > count else { return groups }
            return (0..<count).map { part in
                let range = (part * groups.count / count)..<((part + 1) * groups.count / count)
                return groups[range].dropFirst().reduce(groups[range.lowerBound]) { $0.joined(with: $1) }
            }
        }
    }

    /// The nibble tables by which the C loop classes sixteen bytes at once, its word bytes being the
    /// bytes of `wordClass` in `classes`.
    static func wordNibbles(of classes: [ByteClass], wordClass: ByteClass) -> [UInt8] {
        var nibbles = [UInt8](repeating: 0, count: Int(LOADAUDIT_WORD_NIBBLE_BYTES))
        classes.withUnsafeBufferPointer { classes in
            classes.withMemoryRebound(to: UInt8.self) { classes in
                nibbles.withUnsafeMutableBufferPointer { nibbles in
                    loadaudit_word_nibbles_build(nibbles.baseAddress!, classes.baseAddress!, wordClass.rawValue)
                }
            }
        }
        return nibbles
    }

    /// The bits of a window's first `length` bytes (read little-endian, whatever the machine).
    private static func mask(_ length: Int) -> UInt32 { length >= 4 ? .max : (1 << UInt32(8 * length)) - 1 }

    /// The groups whose every word appears in `bytes` as a whole word (by index, ascending); the look
    /// stops once `enough` says the groups seen so far settle the question.
    func groupsAppearing(in bytes: UnsafeBufferPointer<UInt8>, enough: (Set<Int>) -> Bool = { _ in false }) -> Set<Int> {
        // Which literals were seen, on the stack: asked of every file.
        withUnsafeTemporaryAllocation(of: Bool.self, capacity: literals.count) { found in
            found.initialize(repeating: false)
            var appearing = Set<Int>()
            var from = 0
            while let (start, slot) = nextCandidate(in: bytes, from: from) {
                for literal in startSlots.indices where startSlots[literal] == slot && !found[literal] {
                    guard Self.wholeWord(literals[literal], in: bytes, at: start) else { continue }
                    found[literal] = true
                    for group in groupsOfLiteral[literal] where groups[group].allSatisfy({ found[$0] }) {
                        appearing.insert(group)
                        if enough(appearing) { return appearing }
                    }
                }
                from = start + 1
            }
            return appearing
        }
    }

    /// The next word start at or after `from` whose window's hash has its bit set, with that hash: the
    /// loop over every byte, in C for the machine's vector instructions (a Swift `SIMD16` comparison
    /// compiles to a loop over its lanes here). Only a word's start can begin a whole word.
    private func nextCandidate(in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> (start: Int, slot: Int)? {
        guard let base = bytes.baseAddress else { return nil }
        var slot = 0
        let start = classes.withUnsafeBufferPointer { $0.withMemoryRebound(to: UInt8.self) { classes in
            wordNibbles.withUnsafeBufferPointer { wordNibbles in
                startBits.withUnsafeBufferPointer { startBits in
                    func look(_ fingerprints: UnsafePointer<UInt8>?) -> Int {
                        var look = loadaudit_look(
                            classes: classes.baseAddress!, word_class: ByteClass.nameStart.rawValue,
                            word_nibbles: wordNibbles.baseAddress!, start_bits: startBits.baseAddress!, window_mask: windowMask,
                            hash_bits: Int32(Self.hashBits), window_length: Int32(windowLength), fingerprints: fingerprints)
                        return loadaudit_next_word_start(base, bytes.count, from, &look, &slot)
                    }
                    guard let fingerprints else { return look(nil) }
                    return fingerprints.withUnsafeBufferPointer { look($0.baseAddress!) }
                }
            }
        } }
        return start < 0 ? nil : (start, slot)
    }

    /// A letter, `_`, or a byte of a multi-byte character: a name byte that is no digit (the C
    /// loop's word bytes). Before a word, such a byte makes it no whole word.
    static func startsAWord(_ byte: UInt8) -> Bool { ByteClass.of(byte).contains(.nameStart) }

    private static func wholeWord(_ literal: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        let end = start + literal.count
        guard end <= bytes.count else { return false }
        for (offset, byte) in literal.enumerated() where bytes[start + offset] != byte { return false }
        if start > 0, startsAWord(bytes[start - 1]) { return false }
        return end == bytes.count || !ByteClass.of(bytes[end]).contains(.name)
    }
}
