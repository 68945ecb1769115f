import Foundation

/// Running servers' heartbeats (`server_instances`): how `keys retire` knows whether a live
/// server still seals under a key, on every server sharing the database.
public protocol ServerInstanceStore: Sendable {
    /// Inserts or refreshes this server's row (and forgets rows that expired long ago).
    func saveHeartbeat(_ heartbeat: ServerHeartbeat) async throws
    /// A clean stop removes the row at once rather than letting it expire.
    func removeHeartbeat(instanceID: String) async throws
    /// Servers whose heartbeat has not expired at `time`.
    func liveServers(at time: Date) async throws -> [ServerHeartbeat]
}
