/// A way a cardholder may activate a token the issuer decided yellow, as the Provisio dialect
/// names it (`activation_methods`).
public enum ActivationMethod: String, Sendable, Equatable, CaseIterable {
    /// The issuer's app opened by the wallet (TAV).
    case appToApp = "app_to_app"
    /// A one-time code by SMS.
    case otpSMS = "otp_sms"
    /// A one-time code by email.
    case otpEmail = "otp_email"
    /// A call to the issuer's customer service.
    case customerService = "customer_service"
}
