import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Hashes and checks operators' passwords. A port so that tests can use a cheaper cost; the
/// server uses bcrypt at `BcryptPasswordHasher.standardCost`.
public protocol PasswordHasher: Sendable {
    func hash(_ password: String) async -> String
    func verify(_ password: String, hash: String) async -> Bool
}

/// bcrypt (hummingbird-auth's), off the event loops: a hash at cost 12 takes a quarter of a
/// second of CPU, which must not stall the requests sharing a loop.
public struct BcryptPasswordHasher: PasswordHasher {
    public static let standardCost: UInt8 = 12
    public let cost: UInt8

    public init(cost: UInt8 = standardCost) {
        self.cost = cost
    }

    public func hash(_ password: String) async -> String {
        let cost = self.cost
        return (try? await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) })
            ?? Bcrypt.hash(password, cost: cost)
    }

    public func verify(_ password: String, hash: String) async -> Bool {
        (try? await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }) ?? false
    }
}
