import Foundation
import ProvisioCore
import ProvisioCrypto

/// Apple's provisioning service, as strict as the real one: it takes the issuer's answer to an
/// add-card session, opens it with the sandbox CA's leaf key, and accepts it only when it carries
/// exactly that session's nonce and the device's signature over it, within 20 seconds, once.
///
/// Stateless apart from the wallet (an actor) that holds the sessions, so it is a plain
/// `Sendable` value that any number of tasks can share.
public struct SandboxAppleProvisioningService: Sendable {
    public let wallet: SandboxWallet
    private let eccOpener: ECCV2Opener?
    private let rsaOpener: RSAV2Opener?
    private let clock: any TimeSource
    private let network: (any NetworkForwarding)?

    /// - Parameters:
    ///   - wallet: the wallet whose sessions this service answers; its CA's leaf keys open payloads.
    ///   - clock: decides whether a session is still open; the wallet's clock unless given.
    ///   - network: receives every accepted submission, when configured.
    public init(wallet: SandboxWallet, clock: (any TimeSource)? = nil, network: (any NetworkForwarding)? = nil) {
        self.wallet = wallet
        // A CA without a usable leaf for a scheme simply cannot accept that scheme (see `open`).
        self.eccOpener = try? wallet.certificateAuthority.eccOpener()
        self.rsaOpener = try? wallet.certificateAuthority.rsaOpener()
        self.clock = clock ?? wallet.clock
        self.network = network
    }

    /// Receives the issuer's answer for `sessionID` (what PassKit sends to Apple with the
    /// `PKAddPaymentPassRequest`), checks it, forwards it to the network and returns what was
    /// forwarded. The session is used up by this call whatever its outcome.
    public func submit(sessionID: String, response: ApplePayloadResponse, scheme: EncryptionScheme) async throws
        -> ProvisioningSubmission
    {
        let now = clock.now()
        let session = try await wallet.claimSession(id: sessionID, at: now)
        guard scheme == session.scheme else {
            throw ProvisioError(
                .sandboxSchemeMismatch,
                "The session was begun for \(session.scheme.rawValue), not \(scheme.rawValue).")
        }
        let plaintext = try open(try sealedPassData(response, scheme: scheme), scheme: scheme)
        let payload = try ApplePassPayload(jsonData: plaintext)

        guard ConstantTime.equal(payload.nonce, session.nonce) else {
            throw ProvisioError(.sandboxNonceMismatch, "The payload's nonce is not the nonce of this session.")
        }
        // Exactly the signature the device produced, and one that verifies under its secure
        // element's key: a fresh or borrowed signature is not this session's.
        guard ConstantTime.equal(payload.nonceSignature, session.nonceSignature),
            session.device.isValidSignature(payload.nonceSignature, for: payload.nonce)
        else {
            throw ProvisioError(
                .sandboxNonceSignatureInvalid,
                "The payload's nonceSignature is not the \(session.device.kind)'s signature over this session's nonce.")
        }
        if !response.activationData.isEmpty, BinaryText.decodeBase64(response.activationData) == nil {
            throw ProvisioError(.sandboxActivationDataMalformed, "The activationData is not base64.")
        }

        let submission = ProvisioningSubmission(
            sessionID: session.id, scheme: scheme, primaryAccountNumber: payload.primaryAccountNumber,
            expiry: payload.expiry, cardholderName: payload.name,
            activationData: response.activationData.isEmpty ? nil : response.activationData, device: session.device,
            primaryAccountIdentifier: session.primaryAccountIdentifier, submittedAt: now)
        if let network {
            try await network.forward(submission)
        }
        return submission
    }

    /// The sealed part, with exactly the key material the scheme calls for.
    private func sealedPassData(_ response: ApplePayloadResponse, scheme: EncryptionScheme) throws -> SealedPassData {
        if response.ephemeralPublicKey != nil && response.wrappedKey != nil {
            throw ProvisioError(.payloadMalformed, "The answer carries both an ephemeralPublicKey and a wrappedKey.")
        }
        guard let sealed = response.sealedPassData() else {
            throw ProvisioError(
                .payloadMalformed,
                "The answer's encryptedPassData and \(scheme == .eccV2 ? "ephemeralPublicKey" : "wrappedKey") must be base64.")
        }
        return sealed
    }

    private func open(_ sealed: SealedPassData, scheme: EncryptionScheme) throws -> Data {
        switch scheme {
        case .eccV2:
            guard let eccOpener else {
                throw ProvisioError(.sandboxLeafUnavailable, "This sandbox CA has no P-256 leaf key to open ECC_V2 payloads.")
            }
            return try eccOpener.open(sealed)
        case .rsaV2:
            guard let rsaOpener else {
                throw ProvisioError(.sandboxLeafUnavailable, "This sandbox CA has no RSA leaf key to open RSA_V2 payloads.")
            }
            return try rsaOpener.open(sealed)
        }
    }
}
