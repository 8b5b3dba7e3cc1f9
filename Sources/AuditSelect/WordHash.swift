import AuditModel
import SwiftGrammar

/// Words hashed once, for asking many files' readings about them (a trigger list, the clock words).
public struct WordSet: Sendable {
    /// Each word's identifiers' hashes (`loadaudit:` has one, `UI.Spinner` two).
    let words: [[UInt64]]

    public init<Words: Sequence>(_ words: Words) where Words.Element == String {
        self.words = words.map(Self.parts(of:))
    }

    /// The hashes of the identifiers in `word`.
    static func parts(of word: String) -> [UInt64] { identifiers(of: word).map(WordHash.of(bytes:)) }

    /// The identifiers in `word`, split as `CodeScanner` splits names (`loadaudit:` has one, `UI.Spinner` two).
    static func identifiers(of word: String) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in word.utf8 {
            if ByteClass.of(byte).contains(.name) {
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

/// The one hash of the select step: FNV-1a over a word's bytes (`FNV1a`, the tool's one byte hash),
/// then a final mix so that both halves of the value are usable.
public struct WordHash {
    fileprivate var state = FNV1a()

    mutating func add(_ byte: UInt8) { state.add(byte) }

    static func of(_ word: String) -> UInt64 { of(bytes: word.utf8) }

    /// The hash `CodeScanner` gives a name, for asking a file's reading about names known as strings:
    /// of its name bytes only, as the scanner splits (`$0` is `0`, `` `default` `` is `default`).
    public static func ofName(_ name: String) -> UInt64 {
        var hash = WordHash()
        for byte in name.utf8 where ByteClass.of(byte).contains(.name) { hash.add(byte) }
        return hash.value
    }

    /// The hash `FileSelector.forEachName` gives the name where it stands in a file (its name bytes,
    /// after any leading digits: `$0` and `0` give none); nil when that leaves nothing.
    public static func ofWord(_ name: String) -> UInt64? {
        var hash = WordHash()
        var started = false
        for byte in name.utf8 where ByteClass.of(byte).contains(.name) {
            if !started, ByteClass.of(byte).contains(.digit) { continue }
            started = true
            hash.add(byte)
        }
        return started ? hash.value : nil
    }

    static func of<Bytes: Sequence>(bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash = WordHash()
        for byte in bytes { hash.add(byte) }
        return hash.value
    }

    var value: UInt64 {
        var mixed = state.value
        mixed ^= mixed >> 33
        mixed &*= 0xff51_afd7_ed55_8ccd
        mixed ^= mixed >> 33
        return mixed
    }
}
