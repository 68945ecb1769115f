import Foundation
import ProvisioSandbox
import ProvisioSandboxAPI

extension Components.Schemas.AddSession {
    /// What PassKit hands the issuer app, base64 throughout: the form the app sends on to
    /// Provisio's `apple-pay` endpoint.
    package init(_ session: AddPaymentPassSession) {
        self.init(
            id: session.id, device: .init(session.device.kind), scheme: .init(session.scheme),
            certificates: session.certificatesBase64, nonce: session.nonce.base64EncodedString(),
            nonceSignature: session.nonceSignature.base64EncodedString(), expiresAt: session.expiresAt)
    }
}
