import CTreeSitter

/// A grammar's field names and their numbers, looked up by a name's bytes: `Node.child(byField:)`
/// is asked about 100,000 times in a corpus scan, and a `[String: TSFieldId]` lookup hashed every
/// name with the standard library's seeded hash (about 400 instructions a call). Here a name of up to
/// 16 bytes (every field name of the Swift grammar) is read as two 64-bit words, which pick a slot
/// (open addressing, at least 4 slots a field) and are compared there; a longer name is looked up
/// in a dictionary as before. The numbers are those `ts_language_field_id_for_name` gives; a name
/// that is no field gives nil (`ReaderShortcutTests` holds both to the C library on every field and
/// on generated names).
struct FieldTable: Sendable {
    /// Each slot's name, as `key(of:)` makes it (count 0: a free slot), and number.
    private let lows: [UInt64], highs: [UInt64], counts: [Int]
    private let ids: [TSFieldId]
    private let mask: Int
    /// The names longer than 16 bytes.
    private let long: [String: TSFieldId]

    init(_ fields: [(name: String, id: TSFieldId)]) {
        var size = 8
        while size < fields.count * 4 { size *= 2 }
        var lows = [UInt64](repeating: 0, count: size), highs = lows
        var counts = [Int](repeating: 0, count: size)
        var ids = [TSFieldId](repeating: 0, count: size)
        var long: [String: TSFieldId] = [:]
        for field in fields where !field.name.isEmpty {
            let bytes = Array(field.name.utf8)
            guard bytes.count <= 16 else {
                long[field.name] = field.id
                continue
            }
            let key = bytes.withUnsafeBufferPointer(Self.key(of:))
            var slot = Self.slot(key, mask: size - 1)
            while counts[slot] != 0, (lows[slot], highs[slot], counts[slot]) != (key.low, key.high, bytes.count) {
                slot = (slot + 1) & (size - 1)
            }
            (lows[slot], highs[slot], counts[slot], ids[slot]) = (key.low, key.high, bytes.count, field.id)
        }
        (self.lows, self.highs, self.counts, self.ids, self.long) = (lows, highs, counts, ids, long)
        mask = size - 1
    }

    /// Up to 16 bytes as two little-endian words, zero past the end.
    @inline(__always)
    private static func key(of bytes: UnsafeBufferPointer<UInt8>) -> (low: UInt64, high: UInt64) {
        var low: UInt64 = 0, high: UInt64 = 0
        for index in 0..<min(bytes.count, 8) { low |= UInt64(bytes[index]) &<< (8 * index) }
        if bytes.count > 8 { for index in 8..<bytes.count { high |= UInt64(bytes[index]) &<< (8 * (index - 8)) } }
        return (low, high)
    }

    @inline(__always)
    private static func slot(_ key: (low: UInt64, high: UInt64), mask: Int) -> Int {
        Int(truncatingIfNeeded: ((key.low &* 0x9E37_79B9_7F4A_7C15) ^ (key.high &* 0xC2B2_AE3D_27D4_EB4F)) >> 40) & mask
    }

    /// The field's number, nil when `name` is no field of the grammar.
    func id(of name: String) -> TSFieldId? {
        var name = name
        return name.withUTF8 { bytes -> TSFieldId? in
            guard bytes.count <= 16 else { return long[String(decoding: bytes, as: UTF8.self)] }
            let key = Self.key(of: bytes)
            var slot = Self.slot(key, mask: mask)
            while counts[slot] != 0 {
                if lows[slot] == key.low, highs[slot] == key.high, counts[slot] == bytes.count { return ids[slot] }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }
}
