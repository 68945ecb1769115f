import Foundation
import Logging
import ProvisioCore
import ServiceLifecycle

/// Deletes idempotency keys older than the retention (25 hours: the promise is "at least 24")
/// once an hour, and stops with the server's graceful shutdown.
public struct IdempotencyPurgeService: Service {
    public static let retention: TimeInterval = 25 * 3600

    let store: any ProvisioStore
    let clock: any TimeSource
    let logger: Logger
    let interval: Duration

    public init(store: any ProvisioStore, clock: any TimeSource, logger: Logger, interval: Duration = .seconds(3600)) {
        self.store = store
        self.clock = clock
        self.logger = logger
        self.interval = interval
    }

    public func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                let removed = try await store.purgeIdempotencyKeys(createdBefore: clock.now().addingTimeInterval(-Self.retention))
                if removed > 0 { logger.info("purged idempotency keys", metadata: ["count": "\(removed)"]) }
            } catch {
                logger.warning("idempotency purge failed; will retry", metadata: ["error_type": "\(type(of: error))"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
