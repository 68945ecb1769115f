import Foundation
import ProvisioCore

extension SandboxWire {
    /// A token of the sandbox network as its API shows it: the last four digits of the token
    /// PAN and nothing of the funding card's number.
    public struct Token: Codable, Sendable, Hashable {
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

        enum CodingKeys: String, CodingKey {
            case networkTokenRef = "network_token_ref"
            case issuerTokenID = "issuer_token_id"
            case state, decision, reasons
            case activationMethods = "activation_methods"
            case tokenLast4 = "token_last4"
            case device
            case deviceAccountIdentifier = "device_account_identifier"
            case primaryAccountIdentifier = "primary_account_identifier"
            case passSerialNumber = "pass_serial_number"
            case createdAt = "created_at"
        }

        // Absent values are written as null, so every token shows the same fields.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(networkTokenRef, forKey: .networkTokenRef)
            try container.encode(issuerTokenID, forKey: .issuerTokenID)
            try container.encode(state, forKey: .state)
            try container.encode(decision, forKey: .decision)
            try container.encode(reasons, forKey: .reasons)
            try container.encode(activationMethods, forKey: .activationMethods)
            try container.encode(tokenLast4, forKey: .tokenLast4)
            try container.encode(device, forKey: .device)
            try container.encode(deviceAccountIdentifier, forKey: .deviceAccountIdentifier)
            try container.encode(primaryAccountIdentifier, forKey: .primaryAccountIdentifier)
            try container.encode(passSerialNumber, forKey: .passSerialNumber)
            try container.encode(createdAt, forKey: .createdAt)
        }
    }

    public struct TokenList: Codable, Sendable, Hashable {
        public var tokens: [Token]

        public init(_ tokens: [NetworkToken]) {
            self.tokens = tokens.map(Token.init)
        }
    }
}
