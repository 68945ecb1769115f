import Foundation
import Logging
import ProvisioCore
import ProvisioCrypto
import ServiceLifecycle

/// Keeps a running server on the current vault keys and tells the database which keys it uses.
///
/// Every `interval` (and at once for each element of `reloadRequests`: `serve` passes SIGHUP)
/// it re-reads `vault-keys.json` if it changed (see `VaultKeyringReloader`) and refreshes this
/// server's heartbeat row: the key it seals under, the keys it holds, and an expiry of three
/// intervals. `keys retire` refuses a key that a heartbeat not yet expired names as active. A
/// graceful stop deletes the row; a crashed server's row expires.
public struct VaultKeysService<ReloadRequests: AsyncSequence & Sendable>: Service {
    /// How often a server checks the key file and refreshes its heartbeat.
    public static var defaultInterval: Duration { .seconds(30) }
    /// A heartbeat older than this many intervals is a server that is gone.
    public static var heartbeatIntervals: Double { 3 }

    let reloader: VaultKeyringReloader
    let live: LiveKeyring
    let store: any ServerInstanceStore
    let clock: any TimeSource
    let interval: Duration
    let reloadRequests: ReloadRequests
    let logger: Logger
    /// This process's row in `server_instances`.
    public let instanceID: String
    let host: String

    public init(
        directory: KeyDirectory, vault: PANVault, store: any ServerInstanceStore, clock: any TimeSource,
        interval: Duration = Self.defaultInterval, reloadRequests: ReloadRequests, logger: Logger
    ) {
        self.reloader = VaultKeyringReloader(directory: directory, live: vault.liveKeyring)
        self.live = vault.liveKeyring
        self.store = store
        self.clock = clock
        self.interval = interval
        self.reloadRequests = reloadRequests
        self.logger = logger
        self.instanceID = RandomToken.identifier(prefix: "srv_")
        self.host = "\(ProcessInfo.processInfo.hostName) pid \(ProcessInfo.processInfo.processIdentifier)"
    }

    public func run() async throws {
        let startedAt = clock.now()
        // `true`: asked for (reload even if the file looks unchanged); `false`: the periodic check.
        let (wakes, wake) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(8))
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await _ in reloadRequests { wake.yield(true) }
                    } catch {}
                }
                group.addTask {
                    while (try? await Task.sleep(for: interval)) != nil { wake.yield(false) }
                }
                var reloader = self.reloader
                // The first check reads the file once more: a rotation between the server's start
                // and now is not missed.
                report(reloader.check())
                await beat(startedAt: startedAt)
                for await forced in wakes {
                    report(reloader.check(force: forced))
                    await beat(startedAt: startedAt)
                }
                group.cancelAll()
            }
        }
        do {
            try await store.removeHeartbeat(instanceID: instanceID)
        } catch {
            logger.warning(
                "could not remove this server's heartbeat; it expires on its own", metadata: ["error_type": "\(type(of: error))"])
        }
    }

    private func report(_ outcome: VaultKeyringReloader.Outcome) {
        switch outcome {
        case .unchanged:
            break
        case .reloaded(let active, let loaded, let retired):
            logger.info(
                "reloaded the vault keys",
                metadata: [
                    "active_key_id": "\(active)", "loaded_key_ids": "\(loaded.joined(separator: ","))",
                    "retired_key_ids": "\(retired.joined(separator: ","))",
                ])
        case .refused(let code, let message):
            logger.error(
                "vault key reload refused; keeping the keys in use", metadata: ["code": "\(code)", "reason": "\(message)"])
        }
    }

    private func beat(startedAt: Date) async {
        let keyring = live.current
        let now = clock.now()
        let heartbeat = ServerHeartbeat(
            instanceID: instanceID, host: host, activeKeyID: keyring.active.id, loadedKeyIDs: keyring.loadedIDs,
            startedAt: startedAt, lastSeenAt: now, expiresAt: now.addingTimeInterval(interval.seconds * Self.heartbeatIntervals))
        do {
            try await store.saveHeartbeat(heartbeat)
        } catch {
            logger.warning(
                "could not record this server's heartbeat; will retry", metadata: ["error_type": "\(type(of: error))"])
        }
    }
}

extension VaultKeysService where ReloadRequests == AsyncStream<Void> {
    /// Only the periodic check (tests, embedders without signals).
    public init(
        directory: KeyDirectory, vault: PANVault, store: any ServerInstanceStore, clock: any TimeSource,
        interval: Duration = Self.defaultInterval, logger: Logger
    ) {
        self.init(
            directory: directory, vault: vault, store: store, clock: clock, interval: interval,
            reloadRequests: AsyncStream { $0.finish() }, logger: logger)
    }
}
