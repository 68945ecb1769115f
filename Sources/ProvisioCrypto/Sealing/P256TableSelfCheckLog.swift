import Foundation
import ProvisioCore

/// Where a `P256KeyAgreementTable` that disagreed with swift-crypto's ECDH is reported.
///
/// Every refusal is counted; only the first is written, so a swift-crypto whose internals changed
/// meaning shows up once in the log instead of once per recipient key. ProvisioCrypto has no
/// logger of its own: the shared instance writes its line to standard error, where the server's
/// `Logger` (swift-log's default stream handler) writes too.
public final class P256TableSelfCheckLog: Sendable {
    /// The process's log, the one `P256KeyAgreementTable(recipient:)` reports to.
    public static let shared = P256TableSelfCheckLog { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The line written for the first refusal: a stable code, and what happens instead.
    static let message =
        "warning: p256_table_self_check_failed: a P-256 multiplication table disagreed with swift-crypto's ECDH;"
        + " sealing uses swift-crypto's ECDH alone"

    private let failureCount = Locked(0)
    private let write: @Sendable (String) -> Void

    /// `write` receives the single log line (injected so tests can read it).
    init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// How many tables this log has seen refused.
    public var failures: Int { failureCount.value }

    func recordFailure() {
        let isFirst = failureCount.withLock { count -> Bool in
            count += 1
            return count == 1
        }
        if isFirst { write(Self.message) }
    }
}
