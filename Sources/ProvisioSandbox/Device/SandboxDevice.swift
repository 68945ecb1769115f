import Crypto
import Foundation
import ProvisioCore

/// The public identity of one device of the sandbox wallet: its kind, a stable identifier and
/// its secure element's public key. This is what a session and a submission carry; the private
/// key stays in the wallet.
public struct SandboxDevice: Sendable, Hashable, CustomStringConvertible {
    public let kind: SandboxDeviceKind
    /// Stable for the life of the secure element: hex of the first 16 bytes of SHA-256 over the
    /// secure element's public key (like a SEID, it identifies the chip, not the owner).
    public let identifier: String
    public let secureElementPublicKey: P256.Signing.PublicKey

    public init(kind: SandboxDeviceKind, secureElementPublicKey: P256.Signing.PublicKey) {
        self.kind = kind
        self.secureElementPublicKey = secureElementPublicKey
        self.identifier = BinaryText.lowercaseHex(
            SHA256.hash(data: secureElementPublicKey.x963Representation).prefix(16))
    }

    /// True when `signature` is a DER ECDSA P-256 / SHA-256 signature over `message` by this
    /// device's secure element.
    public func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
        return secureElementPublicKey.isValidSignature(parsed, for: message)
    }

    // The identifier is a hash of the key, so kind and identifier decide equality.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind && lhs.identifier == rhs.identifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(identifier)
    }

    public var description: String { "\(kind) \(identifier)" }
}
