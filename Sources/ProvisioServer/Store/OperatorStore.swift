import Foundation
import ProvisioCore

/// Persistence for the support console: operators, their sessions, and the searches support
/// runs. Every change appends its audit line in the same transaction.
public protocol OperatorStore: Sendable {
    func insertOperator(_ record: OperatorRecord) async throws
    func operatorRecord(email: String) async throws -> OperatorRecord?
    func operatorRecord(id: String, tenantID: String) async throws -> OperatorRecord?
    func operators(tenantID: String) async throws -> [OperatorRecord]
    /// Counts a failed sign-in; at `lockAfter` failures in a row the account is locked until
    /// `lockedUntil`. Returns the record as it is now.
    func recordFailedSignIn(operatorID: String, lockAfter: Int, lockedUntil: Date, at time: Date) async throws
        -> OperatorRecord?
    func recordSignIn(operatorID: String, tenantID: String, at time: Date) async throws
    /// Disables the operator and ends their sessions; nil when the tenant has no such operator.
    func disableOperator(id: String, tenantID: String, at time: Date) async throws -> OperatorRecord?

    func insertConsoleSession(_ session: ConsoleSessionRecord) async throws
    func consoleSession(tokenHash: String) async throws -> ConsoleSessionRecord?
    func touchConsoleSession(tokenHash: String, at time: Date) async throws
    func deleteConsoleSession(tokenHash: String) async throws

    func searchCards(tenantID: String, _ search: CardSearch) async throws -> [CardRecord]
    func searchTokens(tenantID: String, _ search: TokenSearch) async throws -> [TokenRecord]
}
