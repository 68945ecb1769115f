import ProvisioCore

extension SandboxWire {
    /// `PUT /sandbox/v1/risk`: what the network and Wallet say about the next requests — for
    /// cards ending in `last4`, or for every card when `last4` is absent. The answer echoes it.
    public struct Risk: SandboxWireRequest, Hashable {
        public var last4: String?
        public var deviceScore: Int
        public var accountScore: Int
        public var walletRecommendation: DecisionOutcome

        public init(_ risk: RiskAssessment, last4: String? = nil) {
            self.last4 = last4
            self.deviceScore = risk.deviceScore
            self.accountScore = risk.accountScore
            self.walletRecommendation = risk.walletRecommendation
        }

        public var assessment: RiskAssessment {
            RiskAssessment(deviceScore: deviceScore, accountScore: accountScore, walletRecommendation: walletRecommendation)
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case last4
            case deviceScore = "device_score"
            case accountScore = "account_score"
            case walletRecommendation = "wallet_recommendation"
        }

        public static let fieldNames = Set(CodingKeys.allCases.map(\.stringValue))
        public static let allowedValues = [
            "wallet_recommendation": [DecisionOutcome.approve, .requireVerification, .decline].map(\.rawValue)
        ]

        // The echo writes `last4: null` for the default, so it says which setting changed.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(last4, forKey: .last4)
            try container.encode(deviceScore, forKey: .deviceScore)
            try container.encode(accountScore, forKey: .accountScore)
            try container.encode(walletRecommendation, forKey: .walletRecommendation)
        }
    }
}
