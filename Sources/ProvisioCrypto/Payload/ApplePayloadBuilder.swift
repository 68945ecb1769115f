import Foundation
import ProvisioCore

/// Builds Apple's provisioning answer: validates the PassKit chain, seals the payload to the
/// leaf with the requested scheme, and signs activation data (a TAV) for the card.
///
/// The one place where chain validation, sealing and TAV signing meet; the CLI's
/// `apple-payload` and the server's provisioning endpoint both call it.
public struct ApplePayloadBuilder: Sendable {
    public let validator: any AppleChainValidating
    public let tavSigner: TAVSigner
    /// How long the activation data stays valid.
    public let activationDataLifetime: TimeInterval

    public init(validator: any AppleChainValidating, tavSigner: TAVSigner, activationDataLifetime: TimeInterval = 30 * 60) {
        self.validator = validator
        self.tavSigner = tavSigner
        self.activationDataLifetime = activationDataLifetime
    }

    /// Refuses an expired card (`card_expired`) and a chain that does not validate at `time`
    /// for the requested scheme, then seals and signs.
    public func build(_ request: ApplePayloadRequest, at time: Date) throws -> ApplePayloadResponse {
        try request.expiry.requireValid(at: time)
        let chain = try validator.validate(
            base64Certificates: request.challenge.certificates, scheme: request.challenge.scheme, at: time)
        return try build(payload: request.payload, chain: chain, at: time)
    }

    public func build(payload: ApplePassPayload, chain: ValidatedAppleChain, at time: Date) throws -> ApplePayloadResponse {
        let plaintext = payload.jsonData()
        let sealed: SealedPassData
        switch chain.recipient {
        case .p256(let recipient):
            sealed = try ECCV2Sealer(recipient: recipient).seal(plaintext)
        case .rsa(let spki):
            sealed = try RSAV2Sealer(recipientSubjectPublicKeyInfo: spki).seal(plaintext)
        }
        let activationData = try tavSigner.sign(
            pan: payload.primaryAccountNumber,
            expiry: payload.expiry,
            validUntil: time.addingTimeInterval(activationDataLifetime)
        )
        return ApplePayloadResponse(sealed: sealed, activationData: activationData)
    }
}
