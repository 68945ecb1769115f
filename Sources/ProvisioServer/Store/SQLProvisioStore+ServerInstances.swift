import Foundation
import ProvisioCore
import SQLKit

// `ServerInstanceStore`, which `ProvisioStore` includes.
extension SQLProvisioStore {
    /// Rows expired this long ago are deleted by the next heartbeat of any server.
    static let expiredHeartbeatRetention: TimeInterval = 24 * 3600

    public func saveHeartbeat(_ heartbeat: ServerHeartbeat) async throws {
        let loaded = heartbeat.loadedKeyIDs.joined(separator: ",")
        try await handle.write { database in
            try await database.raw(
                """
                INSERT INTO server_instances (instance_id, host, active_key_id, loaded_key_ids, started_at, last_seen_at,
                    expires_at)
                VALUES (\(bind: heartbeat.instanceID), \(bind: heartbeat.host), \(bind: heartbeat.activeKeyID),
                    \(bind: loaded), \(bind: heartbeat.startedAt.epochMilliseconds),
                    \(bind: heartbeat.lastSeenAt.epochMilliseconds), \(bind: heartbeat.expiresAt.epochMilliseconds))
                ON CONFLICT (instance_id) DO UPDATE SET active_key_id = excluded.active_key_id,
                    loaded_key_ids = excluded.loaded_key_ids, last_seen_at = excluded.last_seen_at,
                    expires_at = excluded.expires_at
                """
            ).run()
        }
        let cutoff = heartbeat.lastSeenAt.addingTimeInterval(-Self.expiredHeartbeatRetention)
        try await handle.write { database in
            try await database.raw("DELETE FROM server_instances WHERE expires_at < \(bind: cutoff.epochMilliseconds)").run()
        }
    }

    public func removeHeartbeat(instanceID: String) async throws {
        try await handle.write { database in
            try await database.raw("DELETE FROM server_instances WHERE instance_id = \(bind: instanceID)").run()
        }
    }

    public func liveServers(at time: Date) async throws -> [ServerHeartbeat] {
        try await handle.read { database in
            try await database.raw(
                "SELECT * FROM server_instances WHERE expires_at > \(bind: time.epochMilliseconds) ORDER BY instance_id"
            ).all().map { row in
                ServerHeartbeat(
                    instanceID: try row.decode(column: "instance_id", as: String.self),
                    host: try row.decode(column: "host", as: String.self),
                    activeKeyID: try row.decode(column: "active_key_id", as: String.self),
                    loadedKeyIDs: try row.decode(column: "loaded_key_ids", as: String.self).split(separator: ",").map(
                        String.init),
                    startedAt: Date(epochMilliseconds: try row.decode(column: "started_at", as: Int64.self)),
                    lastSeenAt: Date(epochMilliseconds: try row.decode(column: "last_seen_at", as: Int64.self)),
                    expiresAt: Date(epochMilliseconds: try row.decode(column: "expires_at", as: Int64.self)))
            }
        }
    }
}
