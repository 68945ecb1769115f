/// A request body of the sandbox's HTTP API. It names the keys it accepts so the service can
/// refuse any other (a misspelt `reason_code` must not be silently dropped), and, for fields
/// that take one of a few words, those words, so a refusal can list them.
public protocol SandboxWireRequest: Codable, Sendable {
    static var fieldNames: Set<String> { get }
    /// Field name → the values it accepts, for fields restricted to a few words.
    static var allowedValues: [String: [String]] { get }
}

extension SandboxWireRequest {
    public static var allowedValues: [String: [String]] { [:] }
}
