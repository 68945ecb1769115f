/// Parser bugs the fuzzer found that are reported and not fixed yet. A violation that matches one
/// is told apart: `provisio-fuzz --allow-known-findings` (what `Tools/fuzz.sh` passes) prints its
/// first instance and goes on instead of stopping. Remove the entry with the fix; the directed
/// tests in ProvisioFuzzingTests keep it fixed.
public struct FuzzKnownFinding: Sendable, Hashable {
    public let id: String
    public let target: String
    /// A violation is an instance when it is from `target` and its reason contains this.
    public let reasonContains: String
    /// What is wrong, for people.
    public let summary: String

    public init(id: String, target: String, reasonContains: String, summary: String) {
        self.id = id
        self.target = target
        self.reasonContains = reasonContains
        self.summary = summary
    }

    public func matches(target: String, reason: String) -> Bool {
        target == self.target && reason.contains(reasonContains)
    }
}

public enum FuzzKnownFindings {
    /// Empty: the two the fuzzer found (a repeated deep-link parameter without a value, base64
    /// with misplaced padding) are fixed, and ProvisioFuzzingTests keeps them fixed.
    public static let all: [FuzzKnownFinding] = []

    public static func finding(target: String, reason: String) -> FuzzKnownFinding? {
        all.first { $0.matches(target: target, reason: reason) }
    }
}
