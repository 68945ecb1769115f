import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioSandboxAPI

extension SandboxWire {
    /// `POST /sandbox/v1/add-sessions/{id}/submission`: PassKit hands the issuer's answer to
    /// Apple. The fields are exactly those of Provisio's `apple-pay` answer; the scheme is the
    /// session's.
    public struct SubmissionRequest: Sendable, Hashable {
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

        package init(_ request: Components.Schemas.SubmissionRequest) {
            self.init(
                encryptedPassData: request.encryptedPassData, activationData: request.activationData,
                ephemeralPublicKey: request.ephemeralPublicKey, wrappedKey: request.wrappedKey)
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
    }

    /// What became of a submission at the network: green, yellow or red, why, and the pass
    /// Wallet added (nil on red).
    public struct Outcome: Sendable, Hashable {
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

        package init(_ outcome: Components.Schemas.Outcome) throws {
            self.networkTokenRef = outcome.networkTokenRef
            self.issuerTokenID = outcome.issuerTokenId
            self.decision = try .init(spelling: outcome.decision)
            self.reasons = outcome.reasons
            self.activationMethods = outcome.activationMethods
            self.pass = try outcome.pass.map(Pass.init)
        }
    }

    /// The answer to an accepted submission.
    public struct Submission: Sendable, Hashable {
        public var sessionID: String
        public var outcome: Outcome

        /// What Apple forwarded, and what the network made of it.
        public init(_ submission: ProvisioningSubmission, outcome: NetworkProvisioningOutcome) {
            self.sessionID = submission.sessionID
            self.outcome = Outcome(outcome)
        }

        package init(_ submission: Components.Schemas.Submission) throws {
            self.sessionID = submission.sessionId
            self.outcome = try Outcome(submission.outcome)
        }
    }
}

extension Components.Schemas.SubmissionRequest {
    package init(_ request: SandboxWire.SubmissionRequest) {
        self.init(
            encryptedPassData: request.encryptedPassData, activationData: request.activationData,
            ephemeralPublicKey: request.ephemeralPublicKey, wrappedKey: request.wrappedKey)
    }
}

extension Components.Schemas.Outcome {
    package init(_ outcome: SandboxWire.Outcome) throws {
        self.init(
            networkTokenRef: outcome.networkTokenRef, issuerTokenId: outcome.issuerTokenID,
            decision: try .init(spelling: outcome.decision), reasons: outcome.reasons,
            activationMethods: outcome.activationMethods, pass: try outcome.pass.map(Components.Schemas.Pass.init))
    }
}

extension Components.Schemas.Submission {
    package init(_ submission: SandboxWire.Submission) throws {
        self.init(sessionId: submission.sessionID, outcome: try .init(submission.outcome))
    }
}
