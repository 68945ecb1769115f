/// Mirrors `PKIssuerProvisioningExtensionAuthorizationResult`: what the UI extension reports.
public enum AuthorizationOutcome: String, Codable, Hashable, Sendable, CaseIterable {
    case authorized
    case canceled
}
