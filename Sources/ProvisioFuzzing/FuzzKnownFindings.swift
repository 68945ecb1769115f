/// Parser bugs the fuzzer found that are reported and not fixed yet. A violation that matches one
/// is counted apart (`FuzzReport.knownFindings`): the bounded test records it as a known issue and
/// `provisio-fuzz` fails on it only without `--allow-known-findings`. Remove the entry with the fix —
/// the directed tests in ProvisioFuzzingTests then tell you, as their known issue stops occurring.
public struct FuzzKnownFinding: Sendable, Hashable {
    public let id: String
    public let target: String
    /// A violation is an instance when it is from `target` and its reason contains this.
    public let reasonContains: String
    /// What is wrong, for people.
    public let summary: String

    public func matches(_ violation: FuzzViolation) -> Bool {
        violation.target == target && violation.reason.contains(reasonContains)
    }
}

public enum FuzzKnownFindings {
    /// Empty: the two the fuzzer found (a repeated deep-link parameter without a value, base64
    /// with misplaced padding) are fixed, and ProvisioFuzzingTests keeps them fixed.
    public static let all: [FuzzKnownFinding] = []

    public static func finding(for violation: FuzzViolation) -> FuzzKnownFinding? {
        all.first { $0.matches(violation) }
    }
}
