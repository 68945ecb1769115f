import Foundation

/// A person of the issuer's support team, signing in to the console of one tenant.
public struct OperatorRecord: Sendable, Equatable {
    public var id: String
    public var tenantID: String
    /// Lowercased; unique within the tenant.
    public var email: String
    public var role: OperatorRole
    /// A bcrypt hash (`$2b$…`); the password itself is never stored.
    public var passwordHash: String
    /// Failed sign-ins since the last successful one; enough of them lock the account a while.
    public var failedSignIns: Int
    public var lockedUntil: Date?
    public var disabledAt: Date?
    public var createdAt: Date

    public init(
        id: String, tenantID: String, email: String, role: OperatorRole, passwordHash: String, failedSignIns: Int = 0,
        lockedUntil: Date? = nil, disabledAt: Date? = nil, createdAt: Date
    ) {
        self.id = id
        self.tenantID = tenantID
        self.email = email
        self.role = role
        self.passwordHash = passwordHash
        self.failedSignIns = failedSignIns
        self.lockedUntil = lockedUntil
        self.disabledAt = disabledAt
        self.createdAt = createdAt
    }
}
