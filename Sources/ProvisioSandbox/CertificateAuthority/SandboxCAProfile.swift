import Foundation
import X509

/// What the sandbox CA issues. The defaults mirror Apple's production hierarchy; the other
/// settings exist so an issuer (and our tests) can produce each kind of bad chain on purpose.
public struct SandboxCAProfile: Sendable {
    public enum LeafCurve: Sendable { case p256, p384 }

    public var notValidBefore: Date
    public var notValidAfter: Date
    public var leafCarriesAppleExtension = true
    public var intermediateCarriesMarker = true
    public var leafCurve: LeafCurve = .p256
    public var eccLeafKeyUsage = KeyUsage(keyEncipherment: true, keyAgreement: true)
    public var rsaLeafKeyUsage = KeyUsage(keyEncipherment: true, keyAgreement: true)
    /// RSA key generation takes a moment; skip it when only ECC_V2 is needed.
    public var issuesRSALeaf = true

    /// Valid from a day before `now` (clock skew) for `lifetime` seconds (default two years).
    public init(now: Date, lifetime: TimeInterval = 2 * 365 * 24 * 3600) {
        self.notValidBefore = now.addingTimeInterval(-24 * 3600)
        self.notValidAfter = now.addingTimeInterval(lifetime)
    }
}
