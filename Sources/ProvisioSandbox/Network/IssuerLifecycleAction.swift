/// What an issuer asks the network to do to a token through Provisio's network connector.
public enum IssuerLifecycleAction: String, Codable, Hashable, Sendable, CaseIterable {
    case suspend
    case resume
    case delete
}
