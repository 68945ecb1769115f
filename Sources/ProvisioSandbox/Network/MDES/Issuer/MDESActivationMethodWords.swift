/// MDES's activation method types in the sandbox network's own words (the Provisio dialect's
/// `activation_methods`), so that Wallet and the control API offer the same choices whichever
/// dialect the issuer speaks.
enum MDESActivationMethodWords {
    static func word(for type: String) -> String {
        switch type {
        case "TEXT_TO_CARDHOLDER_NUMBER": "otp_sms"
        case "EMAIL_TO_CARDHOLDER_ADDRESS": "otp_email"
        case "CARDHOLDER_TO_USE_MOBILE_APP": "app_to_app"
        case "CARDHOLDER_TO_CALL_MANNED_NUMBER", "CARDHOLDER_TO_CALL_AUTOMATED_NUMBER", "ISSUER_TO_CALL_CARDHOLDER_NUMBER",
            "CARDHOLDER_TO_VISIT_WEBSITE":
            "customer_service"
        default: type.lowercased()
        }
    }

    /// The types the network can send a one-time code through, best first.
    static let codeDelivering = ["TEXT_TO_CARDHOLDER_NUMBER", "EMAIL_TO_CARDHOLDER_ADDRESS"]

    /// The channel type `IssuerConnection.OTPChannel` names for a code-delivering type.
    static func channel(for type: String) -> String {
        type == "EMAIL_TO_CARDHOLDER_ADDRESS" ? "email" : "sms"
    }
}
