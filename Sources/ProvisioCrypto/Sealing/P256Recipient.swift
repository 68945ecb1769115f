import Crypto
import ProvisioCore

/// An ECC_V2 recipient key that keeps its `P256KeyAgreementTable` once it has sealed twice.
///
/// A chain validated once (the command line's `apple-payload`) seals once and never pays the
/// millisecond a table takes; a cached chain (the server's) gets its table on the second seal and
/// keeps it as long as the chain stays cached. The table is built outside the lock; a seal that
/// arrives meanwhile uses swift-crypto's ECDH.
public final class P256Recipient: Sendable {
    private enum State: Sendable {
        case unused
        case usedOnce
        case building
        case ready(P256KeyAgreementTable)
        case unavailable
    }

    public let key: P256.KeyAgreement.PublicKey
    private let state = Locked(State.unused)

    public init(_ key: P256.KeyAgreement.PublicKey) {
        self.key = key
    }

    /// The table to seal with now: nil on the first call, while it is being built, where tables
    /// are unavailable, and for good once a table for this key failed its self-check.
    public func tableForSealing() -> P256KeyAgreementTable? {
        let shouldBuild = state.withLock { state -> Bool in
            switch state {
            case .unused:
                state = P256KeyAgreementTable.isAvailable ? .usedOnce : .unavailable
                return false
            case .usedOnce:
                state = .building
                return true
            case .building, .ready, .unavailable:
                return false
            }
        }
        if shouldBuild {
            let table = P256KeyAgreementTable(recipient: key)
            state.withLock { $0 = table.map(State.ready) ?? .unavailable }
            return table
        }
        return state.withLock { state in
            if case .ready(let table) = state { return table }
            return nil
        }
    }
}
