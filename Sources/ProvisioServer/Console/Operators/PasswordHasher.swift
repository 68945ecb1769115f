import Foundation
import HummingbirdBcrypt

/// Hashes and checks operators' passwords. A port so that tests can use a cheaper cost; the
/// server uses bcrypt at `BcryptPasswordHasher.standardCost`. Either may refuse with
/// `sign_in_busy` when too much hashing is already waiting.
public protocol PasswordHasher: Sendable {
    func hash(_ password: String) async throws -> String
    func verify(_ password: String, hash: String) async throws -> Bool
}

/// bcrypt (hummingbird-auth's) on its own bounded executor: a hash at cost 12 takes a quarter
/// of a second of CPU, which must stall neither the event loops nor the pool that runs the
/// database, and a flood of them must be refused rather than queued without end.
public struct BcryptPasswordHasher: PasswordHasher {
    public static let standardCost: UInt8 = 12
    public let cost: UInt8
    public let executor: PasswordHashingExecutor

    public init(cost: UInt8 = standardCost, executor: PasswordHashingExecutor = PasswordHashingExecutor()) {
        self.cost = cost
        self.executor = executor
    }

    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await executor.run { Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, hash: String) async throws -> Bool {
        try await executor.run { Bcrypt.verify(password, hash: hash) }
    }
}
