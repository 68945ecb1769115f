import Foundation
import ProvisioCore

/// An `OAuth1NonceStore` in memory, for one process (the sandbox, tests): each nonce kept until its
/// timestamp is out of the window, expired ones dropped as new ones arrive.
public final class InMemoryOAuth1NonceStore: OAuth1NonceStore {
    private struct Key: Hashable {
        let consumerKey: String
        let nonce: String
    }

    private let window: TimeInterval
    /// Each nonce with the time after which its timestamp no longer passes the window.
    private let seen = Locked([Key: Date]())

    public init(window: TimeInterval = OAuth1Verifier.defaultWindow) {
        self.window = window
    }

    public func recordIfNew(nonce: String, consumerKey: String, timestamp: Int64, now: Date) async throws -> Bool {
        let key = Key(consumerKey: consumerKey, nonce: nonce)
        let forgetAfter = Date(timeIntervalSince1970: TimeInterval(timestamp) + window)
        return seen.withLock { seen in
            seen = seen.filter { $0.value >= now }
            return seen.updateValue(forgetAfter, forKey: key) == nil
        }
    }

    /// How many nonces are held (for tests of the expiry).
    public var count: Int { seen.withLock { $0.count } }
}
