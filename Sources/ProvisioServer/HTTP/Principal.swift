/// Who is calling: the issuer's backend (API key), a customer's app (mobile session), or an app
/// holding a single-use provision token for one card and wallet.
public enum Principal: Sendable {
    case tenant(TenantRecord)
    case mobileSession(MobileSessionRecord)
    case provisionToken(ProvisionTokenRecord, tokenHash: String)
    /// The card network's token service, acting for one tenant.
    case network(tenantID: String)

    public var tenantID: String {
        switch self {
        case .tenant(let tenant): tenant.id
        case .mobileSession(let session): session.tenantID
        case .provisionToken(let token, _): token.tenantID
        case .network(let tenantID): tenantID
        }
    }

    /// Idempotency keys never cross principals: a customer's replay can reveal only that
    /// customer's responses.
    public var idempotencyScope: String {
        switch self {
        case .tenant(let tenant): tenant.id
        case .mobileSession(let session): "\(session.tenantID)/customer/\(session.customerRef)"
        case .provisionToken(_, let hash): "\(tenantID)/provision-token/\(hash)"
        case .network(let tenantID): "\(tenantID)/network"
        }
    }
}
