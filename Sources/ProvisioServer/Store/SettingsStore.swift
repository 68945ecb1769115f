import Foundation

/// Persistence for per-tenant settings. Each part is written on its own, so changing the
/// decisioning never races with changing the network connection.
public protocol SettingsStore: Sendable {
    /// The tenant's decisioning, nil when it never set any (the standard applies).
    func decisioning(tenantID: String) async throws -> DecisioningSettings?
    func saveDecisioning(_ settings: DecisioningSettings, tenantID: String, at time: Date) async throws
    /// The tenant's own network connection, nil when it uses the server's.
    func networkConnection(tenantID: String) async throws -> NetworkConnectionRecord?
    func saveNetworkConnection(_ connection: NetworkConnectionRecord?, tenantID: String, at time: Date) async throws
    /// The tenant's own activation methods, `.none` when it never set any.
    func activationMethods(tenantID: String) async throws -> ActivationMethodSettings
    func saveActivationMethods(_ settings: ActivationMethodSettings, tenantID: String, at time: Date) async throws
}
