import Foundation

/// How many sign-in attempts one client address and one account (tenant and email, whether or
/// not it exists) may make in a sliding window, on each server. A successful sign-in gives its
/// attempt back, so only failures (and attempts still running) use the allowance.
public struct SignInLimits: Sendable, Equatable {
    public var perAddress: Int
    public var perAccount: Int
    public var window: TimeInterval
    /// Addresses and accounts remembered at most (each a few dozen bytes per attempt).
    public var maximumKeys: Int

    public init(perAddress: Int, perAccount: Int, window: TimeInterval, maximumKeys: Int = 100_000) {
        self.perAddress = perAddress
        self.perAccount = perAccount
        self.window = window
        self.maximumKeys = maximumKeys
    }

    /// 30 attempts per address and 10 per account in 15 minutes. The account's allowance is
    /// twice the wrong passwords that lock it, so its owner still learns of the lock; the
    /// address's lets an office behind one NAT mistype now and then.
    public static let standard = SignInLimits(perAddress: 30, perAccount: 10, window: 15 * 60)
}
