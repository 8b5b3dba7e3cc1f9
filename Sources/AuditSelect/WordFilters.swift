import SwiftGrammar
import Foundation

/// A Bloom filter of identifier hashes: two probes from one 64-bit hash, a power-of-two size.
struct WordFilter: Sendable {
    private let storage: Storage
    private let mask: UInt64

    /// The bits, behind a pointer: the lexer sets two bits per name, millions of times per tree, and
    /// an array's copy-on-write and bounds checks cost more than the setting. Written only while the
    /// lexer fills the filter, before its name index is handed to anyone; read-only after.
    private final class Storage: @unchecked Sendable {
        let bits: UnsafeMutablePointer<UInt64>

        init(words: Int) {
            bits = .allocate(capacity: words)
            bits.initialize(repeating: 0, count: words)
        }

        deinit { bits.deallocate() }
    }

    /// About one bit per byte of source (at least 512): a 10 KB file with 300 distinct names gets
    /// 2 KB of filter and a false "yes" about once in 20,000 questions, so asking about a few hundred
    /// names still rarely parses a file for nothing. `shift` makes smaller filters for rarer names.
    init(byteCount: Int, shift: Int = 0) {
        var count = 512
        while count < byteCount >> shift { count <<= 1 }
        storage = Storage(words: count / 64)
        mask = UInt64(count - 1)
    }

    @inline(__always)
    func insert(_ hash: UInt64) {
        let first = hash & mask, second = (hash >> 32) & mask
        storage.bits[Int(first >> 6)] |= 1 << (first & 63)
        storage.bits[Int(second >> 6)] |= 1 << (second & 63)
    }

    func contains(_ hash: UInt64) -> Bool {
        let first = hash & mask, second = (hash >> 32) & mask
        return storage.bits[Int(first >> 6)] & (1 << (first & 63)) != 0 && storage.bits[Int(second >> 6)] & (1 << (second & 63)) != 0
    }

    /// Every identifier in `word` may be in the filter (and there is at least one).
    func mayContain(_ word: String) -> Bool { mayContain(parts: WordSet.parts(of: word)) }

    func mayContain(parts: [UInt64]) -> Bool { !parts.isEmpty && parts.allSatisfy(contains) }

    func mayContainAny(_ set: WordSet) -> Bool { set.words.contains { mayContain(parts: $0) } }
}

/// Words hashed once, for asking many name indexes about them (a trigger list, the clock words).
public struct WordSet: Sendable {
    /// Each word's identifiers' hashes (`loadaudit:` has one, `UI.Spinner` two).
    let words: [[UInt64]]

    public init<Words: Sequence>(_ words: Words) where Words.Element == String {
        self.words = words.map(Self.parts(of:))
    }

    /// The hashes of the identifiers in `word`.
    static func parts(of word: String) -> [UInt64] { identifiers(of: word).map(WordHash.of(bytes:)) }

    /// The identifiers in `word`, split as the lexer splits names (`loadaudit:` has one, `UI.Spinner` two).
    static func identifiers(of word: String) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in word.utf8 {
            if Lexer.isNameByte[Int(byte)] {
                current.append(byte)
            } else if !current.isEmpty {
                parts.append(current)
                current = []
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }
}

/// An exact set of name hashes from one file, or nil ("unknown": too many, or the lexer lost track).
public struct NameList: Sendable {
    public private(set) var hashes: Set<UInt64>? = []

    init() {}

    init(_ hashes: Set<UInt64>) {
        if hashes.count <= Self.limit { self.hashes = hashes } else { self.hashes = nil }
    }

    static let limit = 4096

    mutating func add(_ hash: UInt64) {
        guard hashes != nil else { return }
        hashes!.insert(hash)
        if hashes!.count > Self.limit { hashes = nil }
    }

    mutating func add(_ more: [UInt64]) {
        for hash in more { add(hash) }
    }

    mutating func giveUp() { hashes = nil }

    /// Whether it may hold one of `wanted` (always, when unknown).
    public func mayIntersect(_ wanted: Set<UInt64>) -> Bool {
        guard let hashes else { return true }
        return hashes.count <= wanted.count ? hashes.contains(where: wanted.contains) : wanted.contains(where: hashes.contains)
    }
}

/// The one hash of the prefilter and the rounds: FNV-1a over a word's bytes, then a final mix so that
/// both halves of the value are usable. (The baseline's fingerprints use their own, stable hash: it is a
/// file format, see AuditBaseline.)
public struct WordHash {
    fileprivate var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ byte: UInt8) {
        state = (state ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    static func of(_ word: String) -> UInt64 { of(bytes: word.utf8) }

    /// The hash the lexer gives a name, for asking name indexes about names known as strings: of its
    /// name bytes only, as the lexer splits (`$0` is `0`, `` `default` `` is `default`).
    public static func ofName(_ name: String) -> UInt64 {
        var hash = WordHash()
        for byte in name.utf8 where Lexer.isNameByte[Int(byte)] { hash.add(byte) }
        return hash.value
    }

    static func of<Bytes: Sequence>(bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash = WordHash()
        for byte in bytes { hash.add(byte) }
        return hash.value
    }

    /// A call and what its first argument shows (an array's name, or a base and member's `pair`),
    /// kept apart from `pair`.
    static func argumentPair(_ callee: UInt64, _ array: UInt64) -> UInt64 {
        pair(callee ^ 0x5851_F42D_4C95_7F2D, array)
    }

    /// A pair of names (`tips` subscripted with `index`, `phase` followed by `.message`).
    static func pair(_ first: UInt64, _ second: UInt64) -> UInt64 {
        var hash = WordHash()
        hash.state = first ^ (second &* 0x9E37_79B9_7F4A_7C15)
        return hash.value
    }

    var value: UInt64 {
        var mixed = state
        mixed ^= mixed >> 33
        mixed &*= 0xff51_afd7_ed55_8ccd
        mixed ^= mixed >> 33
        return mixed
    }
}
