/// SplitMix64 (Steele, Lea, Flood 2014): a 64-bit state, one add and two multiply-xorshifts per
/// draw. Small, fast, and the same on every platform, so a failing test names the seed that
/// reproduces it.
public struct SeededRandom {
    public var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A number in 0..<bound (bound > 0); the modulo bias is irrelevant for tests.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
