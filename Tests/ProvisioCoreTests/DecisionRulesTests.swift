import Testing

@testable import ProvisioCore

@Suite struct DecisionRulesTests {
    let rules = DecisionRules.standard

    @Test func greenIsApproved() throws {
        let decision = try rules.decide(RiskAssessment(deviceScore: 5, accountScore: 4, walletRecommendation: .approve))
        #expect(decision == Decision(outcome: .approve, reasons: ["rules_approved"]))
    }

    @Test func yellowAndLowScoresAskForVerification() throws {
        #expect(
            try rules.decide(RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .requireVerification))
                == Decision(outcome: .requireVerification, reasons: ["wallet_recommends_verification"]))
        #expect(
            try rules.decide(RiskAssessment(deviceScore: 2, accountScore: 2, walletRecommendation: .approve))
                == Decision(outcome: .requireVerification, reasons: ["low_device_score", "low_account_score"]))
    }

    @Test func redAndTheLowestScoresDecline() throws {
        #expect(
            try rules.decide(RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .decline)).outcome == .decline)
        let lowest = try rules.decide(RiskAssessment(deviceScore: 1, accountScore: 4, walletRecommendation: .requireVerification))
        #expect(lowest == Decision(outcome: .decline, reasons: ["device_score_too_low"]))
    }

    @Test func tenantsCanIgnoreTheWallet() throws {
        var lenient = rules
        lenient.followWalletYellow = false
        lenient.followWalletRed = false
        #expect(
            try lenient.decide(RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .decline)).outcome
                == .approve)
    }

    @Test func scoresOutsideOneToFiveAreRefused() {
        for score in [0, 6, -1] {
            let error = #expect(throws: ProvisioError.self) {
                try rules.decide(RiskAssessment(deviceScore: score, accountScore: 3, walletRecommendation: .approve))
            }
            #expect(error?.code == .invalidRiskAssessment)
        }
    }

    @Test func rulesThatContradictThemselvesAreRefused() throws {
        try DecisionRules.standard.validate()
        let bad = [
            DecisionRules(
                minimumDeviceScore: 0, minimumAccountScore: 3, declineAtOrBelowScore: 0, followWalletYellow: true,
                followWalletRed: true),
            DecisionRules(
                minimumDeviceScore: 3, minimumAccountScore: 6, declineAtOrBelowScore: 1, followWalletYellow: true,
                followWalletRed: true),
            DecisionRules(
                minimumDeviceScore: 3, minimumAccountScore: 3, declineAtOrBelowScore: 3, followWalletYellow: true,
                followWalletRed: true),
            DecisionRules(
                minimumDeviceScore: 5, minimumAccountScore: 5, declineAtOrBelowScore: 5, followWalletYellow: true,
                followWalletRed: true),
        ]
        for rules in bad {
            let error = #expect(throws: ProvisioError.self) { try rules.validate() }
            #expect(error?.code == .invalidDecisionRules, "\(rules)")
        }
        // The loosest valid rules: never verify or decline on scores.
        try DecisionRules(
            minimumDeviceScore: 1, minimumAccountScore: 1, declineAtOrBelowScore: 0, followWalletYellow: false,
            followWalletRed: false
        ).validate()
    }
}
