import ProvisioCore

/// How MDES's words map onto Provisio's decisioning (docs/mdes.md, "Decisions from the wallet's
/// data"). Pure.
enum MDESDecisionMapping {
    /// The wallet's assessment as the tenant's rules read it: `device_score` is `deviceScore`,
    /// `account_score` the lower of `accountScore` and `phoneNumberScore`; a missing or
    /// non-numeric score counts as 3, a missing or unknown recommendation as approve.
    static func risk(
        recommendation: String?, deviceScore: String?, accountScore: String?, phoneNumberScore: String?
    ) -> RiskAssessment {
        RiskAssessment(
            deviceScore: score(deviceScore), accountScore: min(score(accountScore), score(phoneNumberScore)),
            walletRecommendation: outcome(recommendation))
    }

    static func score(_ text: String?) -> Int {
        guard let text, let value = Int(text), (1...5).contains(value) else { return 3 }
        return value
    }

    static func outcome(_ recommendation: String?) -> DecisionOutcome {
        switch recommendation {
        case "REQUIRE_ADDITIONAL_AUTHENTICATION": .requireVerification
        case "DECLINED": .decline
        default: .approve
        }
    }

    /// `declineReasonCode` for a red decision, from the reasons Provisio recorded.
    static func declineReason(_ reasons: [String]) -> String {
        if reasons.contains("card_closed") { return "CLOSED_ACCOUNT" }
        if reasons.contains("card_expired") { return "EXPIRED" }
        return "DO_NOT_HONOR"
    }

    /// `formFactor` → Provisio's device type; nil for the kinds Provisio does not name.
    static func deviceType(formFactor: String?) -> DeviceType? {
        switch formFactor {
        case "PHONE": .phone
        case "WATCH", "WATCH_OR_WRISTBAND": .watch
        case "TABLET", "TABLET_OR_EREADER": .tablet
        default: nil
        }
    }

    /// `walletId` → the wallet: Mastercard's identifiers of Apple Pay (103), Google Pay (216) and
    /// Samsung Pay (217); anything else is recorded as Apple Pay (docs/mdes.md).
    static func wallet(walletID: String?) -> Wallet {
        switch walletID {
        case "216": .googlePay
        case "217": .samsungPay
        default: .applePay
        }
    }
}
