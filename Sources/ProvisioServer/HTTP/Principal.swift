/// Who is calling: the issuer's backend (API key), a customer's app (mobile session), or an app
/// holding a single-use provision token for one card and wallet.
public enum Principal: Sendable {
    /// One of a tenant's API keys (its scope says what it may do).
    case apiKey(APIKeyRecord)
    case mobileSession(MobileSessionRecord)
    case provisionToken(ProvisionTokenRecord, tokenHash: String)
    /// The card network's token service, acting for one tenant.
    case network(tenantID: String)

    public var tenantID: String {
        switch self {
        case .apiKey(let key): key.tenantID
        case .mobileSession(let session): session.tenantID
        case .provisionToken(let token, _): token.tenantID
        case .network(let tenantID): tenantID
        }
    }

    /// Idempotency keys never cross credentials: a replay can reveal only an answer the same
    /// API key, customer session or provision token was given (a `read_only` key never sees a
    /// `full` key's new key or signing secret).
    public var idempotencyScope: String {
        switch self {
        case .apiKey(let key): "\(key.tenantID)/api-key/\(key.id)"
        case .mobileSession(let session): "\(session.tenantID)/customer/\(session.customerRef)"
        case .provisionToken(_, let hash): "\(tenantID)/provision-token/\(hash)"
        case .network(let tenantID): "\(tenantID)/network"
        }
    }

    /// Who the audit log names for changes this principal makes. A provision token is named
    /// by the first digits of its hash (the token itself is a bearer secret).
    public var auditActor: AuditActor {
        switch self {
        case .apiKey(let key): AuditActor(.apiKey, id: key.id)
        case .mobileSession(let session): AuditActor(.mobileSession, id: session.id)
        case .provisionToken(_, let hash): AuditActor(.provisionToken, id: String(hash.prefix(12)))
        case .network: AuditActor(.network)
        }
    }
}
