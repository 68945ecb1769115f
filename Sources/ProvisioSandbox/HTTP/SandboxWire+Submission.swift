import Foundation
import ProvisioCore
import ProvisioCrypto

extension SandboxWire {
    /// `POST /sandbox/v1/add-sessions/{id}/submission`: PassKit hands the issuer's answer to
    /// Apple. The fields are exactly those of Provisio's `apple-pay` answer, so that answer can
    /// be decoded into this type as it is; the scheme is the session's.
    public struct SubmissionRequest: SandboxWireRequest, Hashable {
        public var encryptedPassData: String
        public var activationData: String
        /// ECC_V2.
        public var ephemeralPublicKey: String?
        /// RSA_V2.
        public var wrappedKey: String?

        public init(encryptedPassData: String, activationData: String, ephemeralPublicKey: String?, wrappedKey: String?) {
            self.encryptedPassData = encryptedPassData
            self.activationData = activationData
            self.ephemeralPublicKey = ephemeralPublicKey
            self.wrappedKey = wrappedKey
        }

        public init(_ response: ApplePayloadResponse) {
            self.init(
                encryptedPassData: response.encryptedPassData, activationData: response.activationData,
                ephemeralPublicKey: response.ephemeralPublicKey, wrappedKey: response.wrappedKey)
        }

        /// The answer as the sandbox's Apple service takes it.
        public var applePayloadResponse: ApplePayloadResponse {
            // `ApplePayloadResponse` is only built from sealed bytes; its fields are settable, and
            // Apple's service checks every one of them (base64, exactly one key material).
            var response = ApplePayloadResponse(
                sealed: SealedPassData(encryptedPassData: Data(), keyMaterial: .ephemeralPublicKey(Data())),
                activationData: activationData)
            response.encryptedPassData = encryptedPassData
            response.ephemeralPublicKey = ephemeralPublicKey
            response.wrappedKey = wrappedKey
            return response
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case encryptedPassData = "encrypted_pass_data"
            case activationData = "activation_data"
            case ephemeralPublicKey = "ephemeral_public_key"
            case wrappedKey = "wrapped_key"
        }

        public static let fieldNames = Set(CodingKeys.allCases.map(\.stringValue))
    }

    /// What became of a submission at the network: green, yellow or red, why, and the pass
    /// Wallet added (null on red).
    public struct Outcome: Codable, Sendable, Hashable {
        public var networkTokenRef: String
        public var issuerTokenID: String
        public var decision: DecisionOutcome
        public var reasons: [String]
        public var activationMethods: [String]
        public var pass: Pass?

        public init(_ outcome: NetworkProvisioningOutcome) {
            self.networkTokenRef = outcome.networkTokenRef
            self.issuerTokenID = outcome.issuerTokenID
            self.decision = outcome.decision
            self.reasons = outcome.reasons
            self.activationMethods = outcome.activationMethods
            self.pass = outcome.pass.map(Pass.init)
        }

        enum CodingKeys: String, CodingKey {
            case networkTokenRef = "network_token_ref"
            case issuerTokenID = "issuer_token_id"
            case decision, reasons
            case activationMethods = "activation_methods"
            case pass
        }

        // `pass` is written as null on red rather than left out, so a reader sees the field.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(networkTokenRef, forKey: .networkTokenRef)
            try container.encode(issuerTokenID, forKey: .issuerTokenID)
            try container.encode(decision, forKey: .decision)
            try container.encode(reasons, forKey: .reasons)
            try container.encode(activationMethods, forKey: .activationMethods)
            try container.encode(pass, forKey: .pass)
        }
    }

    /// The answer to an accepted submission.
    public struct Submission: Codable, Sendable, Hashable {
        public var sessionID: String
        public var outcome: Outcome

        public init(sessionID: String, outcome: Outcome) {
            self.sessionID = sessionID
            self.outcome = outcome
        }

        enum CodingKeys: String, CodingKey {
            case sessionID = "session_id"
            case outcome
        }
    }
}
