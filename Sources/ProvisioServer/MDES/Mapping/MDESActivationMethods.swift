import ProvisioCore

/// The activation methods Provisio offers MDES for a yellow decision. Pure.
///
/// Provisio holds no contact details of the cardholder, so the masked phone number and email
/// come from `accountHolderData` in MDES's encrypted payload, and are offered only when present;
/// the code itself reaches the cardholder through the issuer's one-time-code webhook, which
/// chooses the channel. The issuer app is offered except to a watch, which cannot open it;
/// customer service always.
enum MDESActivationMethods {
    struct Method: Equatable, Sendable {
        /// `ActivationMethodType`'s value, e.g. `TEXT_TO_CARDHOLDER_NUMBER`.
        var type: String
        var value: String
    }

    static func methods(device: DeviceType?, phoneNumber: String?, email: String?, tenantID: String) -> [Method] {
        var methods: [Method] = []
        if let phone = phoneNumber.flatMap(maskedPhone) {
            methods.append(Method(type: "TEXT_TO_CARDHOLDER_NUMBER", value: phone))
        }
        if let email = email.flatMap(maskedEmail) {
            methods.append(Method(type: "EMAIL_TO_CARDHOLDER_ADDRESS", value: email))
        }
        if device != .watch {
            // The document leaves `value` open for the app; Provisio names the tenant.
            methods.append(Method(type: "CARDHOLDER_TO_USE_MOBILE_APP", value: String(tenantID.prefix(64))))
        }
        methods.append(Method(type: "CARDHOLDER_TO_CALL_MANNED_NUMBER", value: "CUSTOMER_SERVICE"))
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
