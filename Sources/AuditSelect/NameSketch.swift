import CWordStarts
import SwiftGrammar

/// A file's capitalized names, sketched: about one bit for every four bytes of the file, two set per
/// name that starts with a capital (a run of name bytes after its leading digits, as
/// `FileSelector.forEachName` reads them), keyed by the name's first eight bytes and its length
/// (`loadaudit_sketch_names`, one vector pass that looks closer only at 32-byte blocks holding a
/// capital). Built during the first look for the files left for later, so that the follow-up asks
/// the sketch whether a file may mention the names its workspace links by (types, mostly) and reads
/// again only those where it may (`NameSearch.mayBeMentioned`; a name without a capital first makes
/// every file of its workspace read again, as before). It can say yes wrongly (another name with the
/// same first bytes and length, or bits set by others), never no where the whole-word search says yes;
/// `NameSketchTests` checks that on generated text, docs/speed.md has the figures (only capitalized
/// names: sketching every name cost more than the re-reading it spared).
public struct NameSketch: Sendable {
    private let bits: [UInt64]
    private let log2Bits: Int32

    public init(_ bytes: [UInt8]) {
        var log2 = 8
        while log2 < 24, 1 << log2 < bytes.count / 4 { log2 += 1 }
        log2Bits = Int32(log2)
        var bits = [UInt64](repeating: 0, count: (1 << log2) / 64)
        bytes.withUnsafeBufferPointer { bytes in
            Self.classes.withUnsafeBufferPointer { classes in
                classes.withMemoryRebound(to: UInt8.self) { classes in
                    bits.withUnsafeMutableBufferPointer { bits in
                        loadaudit_sketch_names(bytes.baseAddress, bytes.count, classes.baseAddress!, ByteClass.nameStart.rawValue,
                                               ByteClass.name.rawValue, ByteClass.uppercase.rawValue, Self.wordNibbles, Self.nameNibbles,
                                               Self.startNibbles, bits.baseAddress!, Int32(log2))
                    }
                }
            }
        }
        self.bits = bits
    }

    /// Whether a name with this key (`key(of:)`) may be among the file's.
    func mayHold(_ key: UInt64) -> Bool {
        bits.withUnsafeBufferPointer { loadaudit_sketch_may_hold($0.baseAddress!, log2Bits, key) != 0 }
    }

    /// The key of a name as the whole-word search hashes it (`WordHash.ofWord`: its name bytes, after
    /// any leading digits), `.none` when that leaves nothing (no file mentions it), nil when it does
    /// not start with a capital (the sketch cannot tell).
    static func key(of name: String) -> UInt64?? {
        var bytes: [UInt8] = []
        for byte in name.utf8 where ByteClass.of(byte).contains(.name) {
            if bytes.isEmpty, ByteClass.of(byte).contains(.digit) { continue }
            bytes.append(byte)
        }
        guard let first = bytes.first else { return .some(nil) }
        guard ByteClass.of(first).contains(.uppercase) else { return nil }
        return bytes.withUnsafeBufferPointer { loadaudit_sketch_key($0.baseAddress!, $0.count) }
    }

    /// How many bytes the sketch keeps (for the trace and the memory figures).
    public var byteCount: Int { bits.count * 8 }

    private static let classes = ByteClass.table
    private static let wordNibbles = WordScreen.wordNibbles(of: ByteClass.table, wordClass: .nameStart)
    private static let nameNibbles = WordScreen.wordNibbles(of: ByteClass.table, wordClass: .name)
    private static let startNibbles = WordScreen.wordNibbles(of: ByteClass.table, wordClass: .uppercase)
}
