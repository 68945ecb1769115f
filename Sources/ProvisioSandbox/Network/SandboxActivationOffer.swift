/// One way of activating a yellow token as the issuer offered it, and what the wallet shows with
/// it before anything is sent: the masked phone or email a code would go to, the number to call.
public struct SandboxActivationOffer: Sendable, Hashable {
    /// `app_to_app`, `otp_sms`, `otp_email`, `customer_service`, as the issuer named it.
    public var method: String
    public var contact: String?

    public init(method: String, contact: String? = nil) {
        self.method = method
        self.contact = contact
    }
}
