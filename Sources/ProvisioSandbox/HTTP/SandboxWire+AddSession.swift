import Foundation
import ProvisioCore
import ProvisioSandboxAPI

extension SandboxWire {
    /// What PassKit hands the issuer app (`generateRequestWithCertificateChain`), plus the
    /// session id and deadline the answer is checked against. Base64 throughout: the form the
    /// app sends on to Provisio's `apple-pay` endpoint.
    public struct AddSession: Sendable, Hashable {
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

        package init(_ session: Components.Schemas.AddSession) throws {
            self.id = session.id
            self.device = try .init(spelling: session.device)
            self.scheme = try .init(spelling: session.scheme)
            self.certificates = session.certificates
            self.nonce = session.nonce
            self.nonceSignature = session.nonceSignature
            self.expiresAt = session.expiresAt
        }
    }
}

extension Components.Schemas.AddSession {
    package init(_ session: SandboxWire.AddSession) throws {
        self.init(
            id: session.id, device: try .init(spelling: session.device), scheme: try .init(spelling: session.scheme),
            certificates: session.certificates,
            nonce: session.nonce, nonceSignature: session.nonceSignature, expiresAt: session.expiresAt)
    }
}
