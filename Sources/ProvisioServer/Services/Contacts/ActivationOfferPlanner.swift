import ProvisioCore

/// Which activation methods a yellow token's cardholder is offered, for the device the token is
/// for. Pure: the caller says which methods are offered at all (today every one; a card product
/// narrows them), the card's masked contacts and the number customer service answers.
///
/// - No `app_to_app` on a watch, which cannot open the issuer's app.
/// - `otp_sms` only with a phone, `otp_email` only with an email, each with its masked contact.
///   A card that holds neither (every card made before contacts existed) keeps `otp_sms` without
///   a contact, as it was offered before: the issuer's webhook chooses where the code goes and
///   says so in its answer. A card with only an email gets no `otp_sms`.
/// - `customer_service` with the number to call; left out when there is none.
///
/// The offers keep the order of `offered`.
public enum ActivationOfferPlanner {
    public static func offers(
        device: DeviceType?, offered: [ActivationMethod] = ActivationMethod.allCases, maskedPhone: String?,
        maskedEmail: String?, customerServicePhone: String?
    ) -> [ActivationOffer] {
        var offers: [ActivationOffer] = []
        for method in offered where !offers.contains(where: { $0.method == method }) {
            switch method {
            case .appToApp:
                if device != .watch { offers.append(ActivationOffer(.appToApp)) }
            case .otpSMS:
                if let maskedPhone {
                    offers.append(ActivationOffer(.otpSMS, contact: maskedPhone))
                } else if maskedEmail == nil {
                    offers.append(ActivationOffer(.otpSMS))
                }
            case .otpEmail:
                if let maskedEmail { offers.append(ActivationOffer(.otpEmail, contact: maskedEmail)) }
            case .customerService:
                if let customerServicePhone { offers.append(ActivationOffer(.customerService, contact: customerServicePhone)) }
            }
        }
        return offers
    }

    /// The method a one-time code's channel stands for: `sms` is `otp_sms`, `email` `otp_email`.
    public static func method(ofChannel channel: OTPChannelChoice) -> ActivationMethod {
        switch channel {
        case .sms: .otpSMS
        case .email: .otpEmail
        }
    }
}
