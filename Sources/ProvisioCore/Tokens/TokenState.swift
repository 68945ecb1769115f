/// Where a wallet token stands, from the issuer's point of view.
///
///     requested ─┬─► active ◄──► suspended
///                ├─► pending_verification ─► active
///                └─► declined
///     pending_verification, active, suspended ─► deleted
public enum TokenState: String, Codable, Hashable, Sendable, CaseIterable {
    case requested
    case pendingVerification = "pending_verification"
    case active
    case suspended
    case deleted
    case declined

    /// Deleted and declined tokens never change again.
    public var isFinal: Bool { self == .deleted || self == .declined }
}
