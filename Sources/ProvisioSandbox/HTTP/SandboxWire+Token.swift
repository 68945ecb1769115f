import Foundation
import ProvisioCore
import ProvisioSandboxAPI

extension SandboxWire {
    /// A token of the sandbox network as its API shows it: the last four digits of the token
    /// PAN and nothing of the funding card's number.
    public struct Token: Sendable, Hashable {
        public var networkTokenRef: String
        public var issuerTokenID: String?
        public var state: NetworkTokenState
        public var decision: DecisionOutcome
        public var reasons: [String]
        public var activationMethods: [String]
        public var tokenLast4: String
        public var device: SandboxDeviceKind
        public var deviceAccountIdentifier: String
        public var primaryAccountIdentifier: String
        public var passSerialNumber: String?
        public var createdAt: Date

        public init(_ token: NetworkToken) {
            self.networkTokenRef = token.networkTokenRef
            self.issuerTokenID = token.issuerTokenID
            self.state = token.state
            self.decision = token.decision
            self.reasons = token.reasons
            self.activationMethods = token.activationMethods
            self.tokenLast4 = token.tokenPrimaryAccountNumber.last4
            self.device = token.device.kind
            self.deviceAccountIdentifier = token.deviceAccountIdentifier
            self.primaryAccountIdentifier = token.primaryAccountIdentifier
            self.passSerialNumber = token.passSerialNumber
            self.createdAt = token.createdAt
        }

        package init(_ token: Components.Schemas.Token) throws {
            self.networkTokenRef = token.networkTokenRef
            self.issuerTokenID = token.issuerTokenId
            self.state = try .init(spelling: token.state)
            self.decision = try .init(spelling: token.decision)
            self.reasons = token.reasons
            self.activationMethods = token.activationMethods
            self.tokenLast4 = token.tokenLast4
            self.device = try .init(spelling: token.device)
            self.deviceAccountIdentifier = token.deviceAccountIdentifier
            self.primaryAccountIdentifier = token.primaryAccountIdentifier
            self.passSerialNumber = token.passSerialNumber
            self.createdAt = token.createdAt
        }
    }
}

extension Components.Schemas.Token {
    package init(_ token: SandboxWire.Token) throws {
        self.init(
            networkTokenRef: token.networkTokenRef, issuerTokenId: token.issuerTokenID, state: try .init(spelling: token.state),
            decision: try .init(spelling: token.decision), reasons: token.reasons, activationMethods: token.activationMethods,
            tokenLast4: token.tokenLast4, device: try .init(spelling: token.device),
            deviceAccountIdentifier: token.deviceAccountIdentifier,
            primaryAccountIdentifier: token.primaryAccountIdentifier, passSerialNumber: token.passSerialNumber,
            createdAt: token.createdAt)
    }
}
