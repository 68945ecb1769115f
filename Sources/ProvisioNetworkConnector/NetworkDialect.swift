/// The wire a card network's token service speaks, which decides the connector Provisio uses
/// to reach it. Each dialect has its folder in this module: its OpenAPI document, where there is
/// one, and its `NetworkConnector`.
public enum NetworkDialect: String, Sendable, CaseIterable {
    /// Provisio's own connector API (`Provisio/network-connector-openapi.yaml`), which the
    /// sandbox's network serves.
    case provisio
    /// Mastercard MDES's Customer Service API (`MDES/mdes-customer-service-openapi.yaml`),
    /// every request signed with OAuth 1.0a.
    case mdes
}
