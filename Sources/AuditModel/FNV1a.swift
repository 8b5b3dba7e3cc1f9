/// 64-bit FNV-1a (Fowler, Noll, Vo), the one byte hash of the tool: the same on every platform and
/// in every release, unlike `Hasher`. The baseline's fingerprints (a file format: their values must
/// never change), the result cache's keys (two of them, the second from another seed) and the select
/// step's word hashes (with a final mix of their own) are all made by it.
@frozen
public struct FNV1a: Sendable {
    /// The standard starting value.
    @inlinable public static var offsetBasis: UInt64 { 0xCBF2_9CE4_8422_2325 }
    @inlinable static var prime: UInt64 { 0x0000_0100_0000_01B3 }

    @usableFromInline var state: UInt64

    /// The hash of the bytes added so far.
    @inlinable public var value: UInt64 { state }

    /// A hash of nothing yet; `seed` for a second, independent hash of the same bytes.
    @inlinable
    public init(seed: UInt64 = FNV1a.offsetBasis) { state = seed }

    @inlinable
    public mutating func add(_ byte: UInt8) {
        state = (state ^ UInt64(byte)) &* Self.prime
    }

    @inlinable
    public mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { add(byte) }
    }

    /// The standard hash of `bytes`.
    @inlinable
    public static func of<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash = FNV1a()
        hash.add(bytes)
        return hash.value
    }
}
