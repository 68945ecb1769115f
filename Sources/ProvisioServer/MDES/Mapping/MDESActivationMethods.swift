import ProvisioCore

/// The activation methods Provisio offers MDES for a yellow decision. Pure.
///
/// Provisio holds no contact details of the cardholder, so the masked phone number and email
/// come from `accountHolderData` in MDES's encrypted payload, and are offered only when present;
/// the code itself reaches the cardholder through the issuer's one-time-code webhook, which
/// chooses the channel. The issuer's own methods come from its settings
/// (`/v1/settings/activation-methods`), each only when set: the app (never to a watch, which
/// cannot open it), the number to reach an agent, the automated line.
enum MDESActivationMethods {
    struct Method: Equatable, Sendable {
        /// `ActivationMethodType`'s value, e.g. `TEXT_TO_CARDHOLDER_NUMBER`.
        var type: String
        var value: String
    }

    static func methods(
        device: DeviceType?, phoneNumber: String?, email: String?, issuer: ActivationMethodSettings
    ) -> [Method] {
        var methods: [Method] = []
        if let phone = phoneNumber.flatMap(maskedPhone) {
            methods.append(Method(type: "TEXT_TO_CARDHOLDER_NUMBER", value: phone))
        }
        if let email = email.flatMap(maskedEmail) {
            methods.append(Method(type: "EMAIL_TO_CARDHOLDER_ADDRESS", value: email))
        }
        if device != .watch, let app = issuer.appIdentifier {
            // The document leaves `value` open for the app ("a formatted string"): its identifier.
            methods.append(Method(type: "CARDHOLDER_TO_USE_MOBILE_APP", value: app))
        }
        if let number = issuer.customerServicePhoneNumber {
            methods.append(Method(type: "CARDHOLDER_TO_CALL_MANNED_NUMBER", value: number))
        }
        if let number = issuer.automatedPhoneNumber {
            methods.append(Method(type: "CARDHOLDER_TO_CALL_AUTOMATED_NUMBER", value: number))
        }
        return methods
    }

    /// All digits but the last four hidden: `*******1234`; nil without four digits.
    static func maskedPhone(_ number: String) -> String? {
        let digits = number.filter { $0.isASCII && $0.isNumber }
        guard digits.count >= 4 else { return nil }
        return String(repeating: "*", count: min(digits.count - 4, 16)) + digits.suffix(4)
    }

    /// The first character of the local part and the domain: `j***@example.com`; nil when it is
    /// not shaped like an address or would not fit 64 characters.
    static func maskedEmail(_ address: String) -> String? {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = parts[0].first, !parts[1].isEmpty,
            address.allSatisfy({ $0.isASCII && !$0.isWhitespace })
        else { return nil }
        let masked = "\(first)***@\(parts[1])"
        return masked.count <= 64 ? masked : nil
    }
}
