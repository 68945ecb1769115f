import Foundation

/// Where an `OAuth1Verifier` remembers the nonces it has accepted, so a captured request cannot be
/// sent again inside the timestamp window. The server's store can be its database; tests and the
/// sandbox use `InMemoryOAuth1NonceStore`.
public protocol OAuth1NonceStore: Sendable {
    /// Records `nonce` for `consumerKey` and returns true, or returns false if it is already
    /// recorded. A nonce may be forgotten once `timestamp` + the verifier's window has passed:
    /// the timestamp check refuses the request from then on.
    func recordIfNew(nonce: String, consumerKey: String, timestamp: Int64, now: Date) async throws -> Bool
}
