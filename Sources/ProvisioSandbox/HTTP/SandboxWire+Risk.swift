import ProvisioCore
import ProvisioSandboxAPI

extension SandboxWire {
    /// `PUT /sandbox/v1/risk`: what the network and Wallet say about the next requests — for
    /// cards ending in `last4`, or for every card when `last4` is nil. The answer is the setting.
    public struct Risk: Sendable, Hashable {
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

        package init(_ risk: Components.Schemas.Risk) throws {
            self.last4 = risk.last4
            self.deviceScore = risk.deviceScore
            self.accountScore = risk.accountScore
            self.walletRecommendation = try .init(spelling: risk.walletRecommendation)
        }

        public var assessment: RiskAssessment {
            RiskAssessment(deviceScore: deviceScore, accountScore: accountScore, walletRecommendation: walletRecommendation)
        }
    }
}

extension Components.Schemas.Risk {
    package init(_ risk: SandboxWire.Risk) throws {
        self.init(
            last4: risk.last4, deviceScore: risk.deviceScore, accountScore: risk.accountScore,
            walletRecommendation: try .init(spelling: risk.walletRecommendation))
    }
}
