import Foundation
import Logging
import ServiceLifecycle

/// Runs in every server process: sends again, when due, the card changes a token's network did
/// not take (`TokenChangeOutbox`). Claims are leased in the database, so processes share the
/// work without sending a change twice at once.
public struct TokenChangeRetryWorker: Service {
    let outbox: TokenChangeOutbox
    let pollInterval: Duration
    let logger: Logger

    public init(outbox: TokenChangeOutbox, pollInterval: Duration = .seconds(5), logger: Logger) {
        self.outbox = outbox
        self.pollInterval = pollInterval
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                if try await outbox.deliverDue() > 0 { continue }
            } catch {
                // The type only: an error's words might repeat what the network answered.
                logger.warning("token change retry pass failed; will retry", metadata: ["error_type": "\(type(of: error))"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: pollInterval) }
        }
    }
}
