/// Mirrors `PKIssuerProvisioningExtensionStatus`: what the non-UI extension tells Wallet first.
public struct ExtensionStatus: Codable, Hashable, Sendable {
    /// Wallet must run the UI extension (sign-in) before asking for entries.
    public var requiresAuthentication: Bool
    /// Some card can be added to the iPhone.
    public var passEntriesAvailable: Bool
    /// Some card can be added to the paired Watch.
    public var remotePassEntriesAvailable: Bool

    public init(requiresAuthentication: Bool, passEntriesAvailable: Bool, remotePassEntriesAvailable: Bool) {
        self.requiresAuthentication = requiresAuthentication
        self.passEntriesAvailable = passEntriesAvailable
        self.remotePassEntriesAvailable = remotePassEntriesAvailable
    }
}
