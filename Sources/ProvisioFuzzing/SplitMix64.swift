/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny PRNG whose whole sequence follows from one
/// 64-bit seed, so a fuzz run, and any single iteration of it, can be replayed exactly.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0; the modulo bias is irrelevant for fuzzing).
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(_:) needs a positive bound")
        return Int(next() % UInt64(bound))
    }

    /// True with probability 1 / `chance`.
    public mutating func oneIn(_ chance: Int) -> Bool { below(chance) == 0 }

    public mutating func element<T>(of array: [T]) -> T { array[below(array.count)] }

    /// The generator for one iteration of one target: independent of every other iteration, so
    /// `(seed, target, iteration)` alone reproduces an input.
    public static func forIteration(seed: UInt64, target: String, iteration: Int) -> SplitMix64 {
        // FNV-1a of the target name keeps targets with the same seed on different sequences.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in target.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        var mixer = SplitMix64(seed: seed ^ hash)
        _ = mixer.next()
        return SplitMix64(seed: mixer.next() &+ UInt64(truncatingIfNeeded: iteration) &* 0xD1B5_4A32_D192_ED03)
    }
}
