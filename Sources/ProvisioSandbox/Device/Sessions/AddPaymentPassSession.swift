import Foundation
import ProvisioCore

/// One "add card" attempt: what PassKit hands the issuer app's
/// `generateRequestWithCertificateChain(_:nonce:nonceSignature:completionHandler:)`, plus the
/// session id and deadline the sandbox's Apple service checks the answer against.
public struct AddPaymentPassSession: Sendable, Hashable, Identifiable {
    /// Apple gives the issuer 20 seconds to answer `generateRequestWithCertificateChain`.
    public static let lifetime: TimeInterval = 20
    /// PassKit's nonces are short random values; 16 bytes matches what devices send.
    public static let nonceLength = 16

    public let id: String
    public let device: SandboxDevice
    public let scheme: EncryptionScheme
    /// DER, leaf first, then the intermediate (the sandbox CA's chain for `scheme`).
    public let certificates: [Data]
    public let nonce: Data
    /// The device secure element's DER ECDSA P-256 / SHA-256 signature over `nonce`.
    public let nonceSignature: Data
    /// From `PKAddPaymentPassRequestConfiguration`, when the app named the card it adds.
    public let primaryAccountIdentifier: String?
    public let createdAt: Date
    /// `createdAt + lifetime`; the service refuses an answer at or after this instant.
    public let expiresAt: Date

    /// The certificates as base64 DER, the form an app sends to its issuer's server.
    public var certificatesBase64: [String] { certificates.map { $0.base64EncodedString() } }

    /// Open (and answerable) strictly before `expiresAt`.
    public func isExpired(at time: Date) -> Bool { time >= expiresAt }
}
