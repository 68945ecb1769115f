import Foundation
import ProvisioCore

extension SandboxWire {
    /// `POST /sandbox/v1/devices/{kind}/add-sessions`: the app taps "Add to Apple Wallet".
    public struct BeginAddRequest: SandboxWireRequest, Hashable {
        public var scheme: EncryptionScheme
        /// The card the app names in its request configuration, if it names one.
        public var primaryAccountIdentifier: String?

        public init(scheme: EncryptionScheme, primaryAccountIdentifier: String? = nil) {
            self.scheme = scheme
            self.primaryAccountIdentifier = primaryAccountIdentifier
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case scheme
            case primaryAccountIdentifier = "primary_account_identifier"
        }

        public static let fieldNames = Set(CodingKeys.allCases.map(\.stringValue))
        public static let allowedValues = ["scheme": EncryptionScheme.allCases.map(\.rawValue)]
    }

    /// What PassKit hands the issuer app (`generateRequestWithCertificateChain`), plus the
    /// session id and deadline the answer is checked against. Base64 throughout: the form the
    /// app sends on to Provisio's `apple-pay` endpoint.
    public struct AddSession: Codable, Sendable, Hashable {
        public var id: String
        public var device: SandboxDeviceKind
        public var scheme: EncryptionScheme
        /// DER, leaf first.
        public var certificates: [String]
        public var nonce: String
        public var nonceSignature: String
        public var expiresAt: Date

        public init(_ session: AddPaymentPassSession) {
            self.id = session.id
            self.device = session.device.kind
            self.scheme = session.scheme
            self.certificates = session.certificatesBase64
            self.nonce = session.nonce.base64EncodedString()
            self.nonceSignature = session.nonceSignature.base64EncodedString()
            self.expiresAt = session.expiresAt
        }

        enum CodingKeys: String, CodingKey {
            case id, device, scheme, certificates, nonce
            case nonceSignature = "nonce_signature"
            case expiresAt = "expires_at"
        }
    }
}
