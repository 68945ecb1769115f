import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox

/// The issuer side of the flow, built from the real `ApplePayloadBuilder`: it validates the chain
/// the app forwards, seals the card to the leaf and signs activation data.
struct Issuer: Sendable {
    let tavKey = P256.Signing.PrivateKey()

    var builder: ApplePayloadBuilder {
        ApplePayloadBuilder(
            validator: AppleCertificateChainValidator.production(
                additionalAnchors: [SandboxFixtures.ca.root, SandboxFixtures.otherCA.root]),
            tavSigner: TAVSigner(privateKey: tavKey))
    }

    /// The answer to `session`, sent the way an app would send what PassKit gave it.
    func answer(
        _ session: AddPaymentPassSession, encoding: BinaryEncoding = .hex, at time: Date
    ) throws -> ApplePayloadResponse {
        try answer(
            certificates: session.certificatesBase64, nonce: session.nonce, nonceSignature: session.nonceSignature,
            scheme: session.scheme, encoding: encoding, at: time)
    }

    /// An answer from parts, for the cases where the app (or an attacker) mixes them up.
    func answer(
        certificates: [String], nonce: Data, nonceSignature: Data, scheme: EncryptionScheme,
        encoding: BinaryEncoding = .hex, at time: Date
    ) throws -> ApplePayloadResponse {
        let challenge = try PassKitChallenge(
            certificates: certificates, nonceText: encoding.text(nonce), nonceSignatureText: encoding.text(nonceSignature),
            schemeName: scheme.rawValue)
        let request = ApplePayloadRequest(
            primaryAccountNumber: SandboxFixtures.pan, expiry: SandboxFixtures.expiry, name: SandboxFixtures.name,
            challenge: challenge)
        return try builder.build(request, at: time)
    }
}
