/// One target ready to take inputs: the secrets of its seeds collected (no refusal may quote them)
/// and its `valid*` seeds known (each must be accepted). libFuzzer's entry, the replay command and
/// the tests all run inputs through this, so the three judge an input alike.
public struct FuzzHarness: Sendable {
    public let target: any FuzzTarget
    public let seeds: [FuzzSeed]
    /// The `valid*` seeds by their bytes, and their lengths: most inputs are no seed, and a length
    /// lookup spares hashing them.
    private let mustAccept: [[UInt8]: String]
    private let mustAcceptLengths: Set<Int>

    public init(target: some FuzzTarget, seeds: [FuzzSeed]) {
        self.target = target.withSeedSecrets(SecretFragments(seeds.flatMap { target.secrets(inSeed: $0.bytes) }))
        self.seeds = seeds
        var mustAccept: [[UInt8]: String] = [:]
        for seed in seeds where seed.mustBeAccepted { mustAccept[seed.bytes] = seed.name }
        self.mustAccept = mustAccept
        mustAcceptLengths = Set(mustAccept.keys.map(\.count))
    }

    /// The target with its seeds from the committed corpus.
    public init(target: some FuzzTarget, corpus: FuzzCorpus) throws {
        self.init(target: target, seeds: try corpus.seeds(for: target))
    }

    public var name: String { target.name }

    /// The target's outcome; a violation too when the input is a `valid*` seed and was not accepted.
    public func run(_ input: [UInt8]) -> FuzzOutcome {
        let outcome = target.run(input: input)
        if outcome != .accepted, !outcome.isViolation, mustAcceptLengths.contains(input.count),
            let seed = mustAccept[input]
        {
            return .violation("the corpus seed \(seed) must be accepted, but the outcome was \(outcome)")
        }
        return outcome
    }
}
