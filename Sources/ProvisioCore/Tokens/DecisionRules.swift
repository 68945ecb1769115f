/// Green, yellow or red.
public enum DecisionOutcome: String, Codable, Hashable, Sendable {
    case approve
    case requireVerification = "require_verification"
    case decline
}

/// What the card network tells the issuer about a provisioning request.
public struct RiskAssessment: Codable, Hashable, Sendable {
    /// 1 (riskiest) to 5 (most trusted), as the networks score devices and accounts.
    public var deviceScore: Int
    public var accountScore: Int
    /// The wallet's own recommendation (Apple's green / yellow / red).
    public var walletRecommendation: DecisionOutcome

    public init(deviceScore: Int, accountScore: Int, walletRecommendation: DecisionOutcome) {
        self.deviceScore = deviceScore
        self.accountScore = accountScore
        self.walletRecommendation = walletRecommendation
    }

    /// The wire's names (`device_score`, …): the network API, the decision webhook and the sandbox.
    enum CodingKeys: String, CodingKey {
        case deviceScore = "device_score"
        case accountScore = "account_score"
        case walletRecommendation = "wallet_recommendation"
    }

    /// Scores outside 1…5 are `invalid_risk_assessment`.
    public func validate() throws {
        for (name, score) in [("device_score", deviceScore), ("account_score", accountScore)] {
            guard (1...5).contains(score) else {
                throw ProvisioError(.invalidRiskAssessment, "\(name) must be between 1 and 5.")
            }
        }
    }
}

/// An issuer's decision and the reasons behind it, recorded on the token.
public struct Decision: Codable, Hashable, Sendable {
    public var outcome: DecisionOutcome
    public var reasons: [String]

    public init(outcome: DecisionOutcome, reasons: [String]) {
        self.outcome = outcome
        self.reasons = reasons
    }
}

/// A tenant's decisioning rules: approve green, ask for verification on low scores or the
/// wallet's yellow, decline red. Pure; the optional issuer decision webhook overrides it.
public struct DecisionRules: Codable, Hashable, Sendable {
    /// Scores below these ask for verification.
    public var minimumDeviceScore: Int
    public var minimumAccountScore: Int
    /// Scores at or below this decline outright.
    public var declineAtOrBelowScore: Int
    public var followWalletYellow: Bool
    public var followWalletRed: Bool

    public static let standard = DecisionRules(
        minimumDeviceScore: 3, minimumAccountScore: 3, declineAtOrBelowScore: 1, followWalletYellow: true,
        followWalletRed: true)

    public init(
        minimumDeviceScore: Int, minimumAccountScore: Int, declineAtOrBelowScore: Int, followWalletYellow: Bool,
        followWalletRed: Bool
    ) {
        self.minimumDeviceScore = minimumDeviceScore
        self.minimumAccountScore = minimumAccountScore
        self.declineAtOrBelowScore = declineAtOrBelowScore
        self.followWalletYellow = followWalletYellow
        self.followWalletRed = followWalletRed
    }

    /// Minimums within 1…5 (1 never asks for verification on scores); the decline threshold
    /// within 0…4 (0 never declines on scores) and below both minimums, so a score cannot
    /// both decline and merely ask for verification.
    public func validate() throws {
        for (name, value) in [("minimum_device_score", minimumDeviceScore), ("minimum_account_score", minimumAccountScore)] {
            guard (1...5).contains(value) else {
                throw ProvisioError(.invalidDecisionRules, "\(name) must be between 1 and 5.")
            }
        }
        guard (0...4).contains(declineAtOrBelowScore) else {
            throw ProvisioError(.invalidDecisionRules, "decline_at_or_below_score must be between 0 and 4.")
        }
        guard declineAtOrBelowScore < minimumDeviceScore, declineAtOrBelowScore < minimumAccountScore else {
            throw ProvisioError(
                .invalidDecisionRules, "decline_at_or_below_score must be below minimum_device_score and minimum_account_score.")
        }
    }

    public func decide(_ risk: RiskAssessment) throws -> Decision {
        try risk.validate()
        var declines: [String] = []
        var verifications: [String] = []
        if followWalletRed && risk.walletRecommendation == .decline { declines.append("wallet_recommends_decline") }
        if risk.deviceScore <= declineAtOrBelowScore { declines.append("device_score_too_low") }
        if risk.accountScore <= declineAtOrBelowScore { declines.append("account_score_too_low") }
        if !declines.isEmpty { return Decision(outcome: .decline, reasons: declines) }

        if followWalletYellow && risk.walletRecommendation == .requireVerification {
            verifications.append("wallet_recommends_verification")
        }
        if risk.deviceScore < minimumDeviceScore { verifications.append("low_device_score") }
        if risk.accountScore < minimumAccountScore { verifications.append("low_account_score") }
        if !verifications.isEmpty { return Decision(outcome: .requireVerification, reasons: verifications) }
        return Decision(outcome: .approve, reasons: ["rules_approved"])
    }
}
