import ProvisioCore
import ProvisioSandboxAPI

extension Components.Schemas.Risk {
    /// The setting for cards ending in `last4`, or for every card when nil.
    package init(_ risk: RiskAssessment, last4: String?) {
        self.init(
            last4: last4, deviceScore: risk.deviceScore, accountScore: risk.accountScore,
            walletRecommendation: .init(risk.walletRecommendation))
    }

    package var assessment: RiskAssessment {
        RiskAssessment(deviceScore: deviceScore, accountScore: accountScore, walletRecommendation: .init(walletRecommendation))
    }
}
