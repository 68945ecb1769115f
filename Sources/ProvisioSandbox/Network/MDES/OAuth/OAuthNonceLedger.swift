import Foundation

/// The nonces the sandbox's MDES has accepted within the clock-skew window, so that a signed
/// request cannot be sent twice (RFC 5849 §3.3). Entries older than the window are dropped:
/// a request that old is refused for its timestamp anyway.
public actor OAuthNonceLedger {
    private var seen: [String: Int64] = [:]
    private let window: Int64

    public init(window: Int64 = SandboxOAuthVerifier.allowedClockSkew) {
        self.window = window
    }

    /// Records the nonce; false when this consumer key already used it.
    public func admit(_ verified: SandboxOAuthVerifier.Verified, now: Date) -> Bool {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        seen = seen.filter { seconds - $0.value <= 2 * window }
        let key = verified.consumerKey + "\u{0}" + verified.nonce
        guard seen[key] == nil else { return false }
        seen[key] = verified.timestamp
        return true
    }
}
