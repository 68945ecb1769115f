import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import ProvisioServer

/// The sliding windows behind the sign-in limits, the throttle that counts an attempt against
/// its address and its account in one step, and the address an attempt counts against.
@Suite struct SignInThrottleTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aWindowSlides() {
        var counter = SlidingWindowCounter(limit: 3, window: 900, maximumKeys: 100)
        for minute in [0.0, 5, 10] {
            #expect(counter.check("a", at: start + minute * 60) == true)
            counter.record("a", at: start + minute * 60)
        }
        #expect(counter.check("a", at: start + 14 * 60) == false)
        #expect(counter.check("b", at: start + 14 * 60) == true)
        // The first attempt leaves the window at 15 minutes, the others later.
        #expect(counter.check("a", at: start + 15 * 60) == true)
        counter.record("a", at: start + 15 * 60)
        #expect(counter.check("a", at: start + 16 * 60) == false)
        counter.forget("a", at: start + 15 * 60)
        #expect(counter.check("a", at: start + 16 * 60) == true)
    }

    @Test func aFullTableRefusesNewKeysUntilOldOnesExpire() {
        var counter = SlidingWindowCounter(limit: 3, window: 900, maximumKeys: 2)
        counter.record("a", at: start)
        counter.record("b", at: start)
        #expect(counter.check("c", at: start + 60) == false)
        #expect(counter.check("a", at: start + 60) == true)
        let later = counter.allows("c", at: start + 901)
        #expect(later && counter.keyCount == 0)
    }

    @Test func anAttemptCountsAgainstItsAddressAndItsAccountOrNeither() throws {
        let throttle = SignInThrottle(limits: SignInLimits(perAddress: 3, perAccount: 2, window: 900))
        #expect(throttle.admit(address: "192.0.2.1", account: "x", at: start) != nil)
        #expect(throttle.admit(address: "192.0.2.2", account: "x", at: start) != nil)
        // The account is at its limit: refused, and not counted against the address.
        #expect(throttle.admit(address: "192.0.2.1", account: "x", at: start) == nil)
        #expect(throttle.admit(address: "192.0.2.1", account: "y", at: start) != nil)
        #expect(throttle.admit(address: "192.0.2.1", account: "z", at: start) != nil)
        #expect(throttle.admit(address: "192.0.2.1", account: "v", at: start) == nil)
        // A successful attempt is given back.
        let given = throttle.admit(address: "192.0.2.3", account: "w", at: start)
        #expect(throttle.admit(address: "192.0.2.3", account: "w", at: start) != nil)
        #expect(throttle.admit(address: "192.0.2.3", account: "w", at: start) == nil)
        throttle.giveBack(try #require(given))
        #expect(throttle.admit(address: "192.0.2.3", account: "w", at: start) != nil)
    }

    @Test func theAddressIsThePeerOrTheProxysLastForward() throws {
        let peer = try SocketAddress(ipAddress: "203.0.113.9", port: 4000)
        var headers = HTTPFields()
        headers[HTTPField.Name("X-Forwarded-For")!] = "10.0.0.1, 198.51.100.7"
        #expect(SignInClientAddress.key(peer: peer, headers: headers, behindProxy: false) == "203.0.113.9")
        #expect(SignInClientAddress.key(peer: peer, headers: headers, behindProxy: true) == "198.51.100.7")
        #expect(SignInClientAddress.key(peer: peer, headers: HTTPFields(), behindProxy: true) == "203.0.113.9")
        // IPv6 by /64; IPv4-mapped as IPv4.
        #expect(SignInClientAddress.key(text: "2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(SignInClientAddress.key(text: "2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64")
        #expect(SignInClientAddress.key(text: "::ffff:192.0.2.5") == "192.0.2.5")
    }
}

extension SlidingWindowCounter {
    /// `allows` on a copy, so an expectation can call it.
    func check(_ key: String, at now: Date) -> Bool {
        var copy = self
        return copy.allows(key, at: now)
    }
}
