import Foundation

/// Persistence for the MDES listener: the requests MDES sent (per tenant, by a keyed digest of
/// `requestId`), so that a retry is recognised on any server and after a restart, and the
/// activation codes Provisio checks, kept as keyed digests only.
public protocol MDESExchangeStore: Sendable {
    /// Claims the request for this process, or says what an earlier one with its `requestId`
    /// left: its answer, another body, or a claim still running. A claim older than
    /// `staleBefore` whose owner never answered (a crash) is taken over.
    func claimMDESExchange(_ claim: MDESExchangeClaim, staleBefore: Date) async throws -> MDESExchangeClaimResult
    /// Stores the answer of a claimed request, in one transaction with the writes the request
    /// deferred (`pending`, which this closes).
    func completeMDESExchange(_ claim: MDESExchangeClaim, status: Int, answer: String, with pending: PendingWrites)
        async throws
    /// Forgets a claim whose request failed on Provisio's side, so that MDES's retry runs again.
    func releaseMDESExchange(_ claim: MDESExchangeClaim) async throws

    func mdesActivationCode(tenantID: String, tokenUniqueReference: String) async throws -> MDESActivationCodeRecord?
    /// Replaces the token's code (a new delivery voids the previous code).
    func putMDESActivationCode(_ record: MDESActivationCodeRecord) async throws
    /// Writes the code's new state only if it still has `expectedFailures` misses and is live;
    /// false when a concurrent check got there first.
    func updateMDESActivationCode(_ record: MDESActivationCodeRecord, expectedFailures: Int) async throws -> Bool
}

/// One MDES request as the exchange table knows it.
public struct MDESExchangeClaim: Sendable, Equatable {
    public var tenantID: String
    /// `KeyedDigester` of the tenant and `requestId`: MDES's identifier is never stored as sent.
    public var requestKey: String
    public var operation: String
    /// `KeyedDigester` of the canonical body: a PAN-bearing payload is never stored.
    public var bodyDigest: String
    /// This process's claim, to tell it apart from another server's.
    public var claimID: String
    public var claimedAt: Date
}

public enum MDESExchangeClaimResult: Sendable, Equatable {
    case claimed
    /// The same body was answered already: its status and its answer without `responseId`.
    case answered(status: Int, answer: String)
    /// The same `requestId` came with another body, or for another operation.
    case reusedWithOtherBody
    /// The same request is being answered by another call right now.
    case inProgress
}

/// An activation code for one token, as a keyed digest, with its expiry and misses.
public struct MDESActivationCodeRecord: Sendable, Equatable {
    public enum State: String, Sendable {
        case live
        /// Matched once; a code works once.
        case used
        /// Too many misses, or expired: a new delivery is needed.
        case void
    }

    public var tenantID: String
    public var tokenUniqueReference: String
    public var codeDigest: String
    public var expiresAt: Date
    public var failures: Int
    public var state: State
    public var createdAt: Date
}
