/// One activation method offered to the cardholder and what the wallet shows with it before
/// anything is sent: the masked contact for a code, the number to call for customer service.
public struct ActivationOffer: Sendable, Equatable {
    public var method: ActivationMethod
    /// `otp_sms`/`otp_email`: the masked contact; `customer_service`: the issuer's number; nil
    /// for the app, and for `otp_sms` on a card that holds no contact.
    public var contact: String?

    public init(_ method: ActivationMethod, contact: String? = nil) {
        self.method = method
        self.contact = contact
    }
}
