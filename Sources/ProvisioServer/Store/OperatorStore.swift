import Foundation
import ProvisioCore

/// Persistence for the support console: operators, their sessions, and the searches support
/// runs. Every change appends its audit line in the same transaction.
public protocol OperatorStore: Sendable {
    func insertOperator(_ record: OperatorRecord) async throws
    /// The tenant's operator with this (normalized) email; emails are unique per tenant only.
    func operatorRecord(tenantID: String, email: String) async throws -> OperatorRecord?
    func operatorRecord(id: String, tenantID: String) async throws -> OperatorRecord?
    func operators(tenantID: String) async throws -> [OperatorRecord]
    /// Counts a failed sign-in unless the account is locked at `time`, in one conditional
    /// update: at `lockAfter` failures in a row it is locked until `lockedUntil`; a lock that has
    /// run out starts the count again at one. Returns the record when the failure was counted.
    func recordFailedSignIn(operatorID: String, lockAfter: Int, lockedUntil: Date, at time: Date) async throws
        -> OperatorRecord?
    /// A sign-in with the right password: clears the count and audits it, in one conditional
    /// update, unless the account is locked or disabled at `time` (then false, nothing changed).
    func recordSignIn(operatorID: String, tenantID: String, at time: Date) async throws -> Bool
    /// Disables the operator and ends their sessions; nil when the tenant has no such operator.
    func disableOperator(id: String, tenantID: String, at time: Date) async throws -> OperatorRecord?

    func insertConsoleSession(_ session: ConsoleSessionRecord) async throws
    func consoleSession(tokenHash: String) async throws -> ConsoleSessionRecord?
    func touchConsoleSession(tokenHash: String, at time: Date) async throws
    func deleteConsoleSession(tokenHash: String) async throws

    func searchCards(tenantID: String, _ search: CardSearch) async throws -> [CardRecord]
}
