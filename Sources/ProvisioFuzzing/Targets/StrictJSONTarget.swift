import ProvisioCore
import ProvisioJSON

/// The wire JSON parser, `StrictJSONParser.parse`, that reads every request body.
///
/// Accepted: the canonical form re-parses to an equal value with the same hash and is a fixed
/// point; parsing again under tight limits either gives the same value or fails on a limit, never
/// on the grammar. Refused: a `StrictJSONError` whose offset lies inside the input, whose
/// description never names a key of the input, and whose wire error does not depend on the path
/// at all, is `invalid_json` or `duplicate_json_key`, and passes the common message checks.
public struct StrictJSONTarget: FuzzTarget {
    public let name = "json"
    public var seedSecrets = SecretFragments()

    public static let codes: Set<String> = ["invalid_json", "duplicate_json_key"]
    /// Keys whose values are secret-like in the seeds (card numbers, nonces, secrets).
    static let secretKeys = ["pan", "primaryAccountNumber", "nonce", "nonceSignature", "secret", "cvc"]
    static let tightLimits = StrictJSONParser.Limits(maxDepth: 4, maxBytes: 2048, maxStringBytes: 64, maxContainerCount: 8)
    static let limitKinds: Set<StrictJSONError.Kind> = [.tooDeep, .tooLarge, .stringTooLong, .tooManyMembers]

    public init() {}

    public var dictionary: [[UInt8]] {
        [
            #""pan":"#, #""a":1"#, #","a":1"#, #"{"k":"#, #"[["#, "]]", #"\u"#, #"\ud800"#, #"\udc00"#,
            #"\ud83d\ude00"#, #"\u0061"#, "1e5", "-0", "01", "1.", ".5", "NaN", "//", "/*", "'", ",]", ",}", ":",
            #""\u00e9""#, #""e\u0301""#, #"\u0000"#,
        ].map { Array($0.utf8) } + [[0xEF, 0xBB, 0xBF]]
    }

    public func secrets(inSeed seed: [UInt8]) -> [[UInt8]] {
        Self.secretKeys.flatMap { LenientJSON.values(forKey: $0, in: seed) }
    }

    public func withSeedSecrets(_ secrets: SecretFragments) -> StrictJSONTarget {
        var copy = self
        copy.seedSecrets = secrets
        return copy
    }

    public func run(input: [UInt8]) -> FuzzOutcome {
        let value: JSONValue
        do {
            value = try StrictJSONParser.parse(input)
        } catch {
            return refused(error, input: input)
        }

        let canonical = value.canonicalData()
        guard let again = try? StrictJSONParser.parse(canonical) else {
            return .violation("the canonical form \(FuzzHex.encode(canonical.prefix(200))) does not parse")
        }
        guard again == value, again.hashValue == value.hashValue else {
            return .violation("the canonical form parses to a different value (or hash)")
        }
        guard again.canonicalData() == canonical else {
            return .violation("the canonical form is not a fixed point")
        }
        do {
            let tight = try StrictJSONParser.parse(input, limits: Self.tightLimits)
            guard tight == value else { return .violation("tight limits read a different value") }
        } catch {
            guard Self.limitKinds.contains(error.kind) else {
                return .violation("accepted under the default limits, refused under tight ones for \(error.kind)")
            }
        }
        return .accepted
    }

    private func refused(_ error: StrictJSONError, input: [UInt8]) -> FuzzOutcome {
        guard (0...input.count).contains(error.offset) else {
            return .violation("the error offset \(error.offset) is outside the input (\(input.count) bytes)")
        }
        // Keys are input: the description must read the same as with every key left out.
        let keys = error.path.compactMap { component -> String? in
            if case .key(let key) = component { return key }
            return nil
        }
        let keyless = StrictJSONError(
            kind: error.kind, offset: error.offset,
            path: error.path.map { component in
                if case .key = component { return .key("") }
                return component
            })
        if error.description != keyless.description {
            return .violation("the error description depends on the keys \(keys.map { $0.prefix(40) })")
        }
        let wire = error.provisioError
        guard wire == StrictJSONError(kind: error.kind, offset: error.offset).provisioError else {
            return .violation("the wire error depends on the path (it may quote a key)")
        }
        let pans = Self.secretKeys.prefix(2).flatMap { LenientJSON.values(forKey: $0, in: input) }
        return FuzzChecks.refusal(
            wire, codes: Self.codes, secrets: seedSecrets, inputSecrets: pans.flatMap(FuzzChecks.digitRuns))
    }
}
