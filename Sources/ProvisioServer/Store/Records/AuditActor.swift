/// Who made a change: an API key, an operator, the card network, a customer's app credential,
/// someone at the server's command line, or the server itself (workers, migrations).
public struct AuditActor: Sendable, Equatable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        case apiKey = "api_key"
        case `operator`
        case network
        case mobileSession = "mobile_session"
        case provisionToken = "provision_token"
        case commandLine = "command_line"
        case system
    }

    public var kind: Kind
    public var id: String?

    public init(_ kind: Kind, id: String? = nil) {
        self.kind = kind
        self.id = id
    }

    public static let system = AuditActor(.system)
    public static let commandLine = AuditActor(.commandLine)
}
