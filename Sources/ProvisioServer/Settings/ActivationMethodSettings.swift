import Foundation
import ProvisioCore

/// The issuer's own ways for a cardholder to verify a token, offered to the card network on the
/// yellow path (`/v1/settings/activation-methods`): each only when set. Provisio holds no contact
/// details of cardholders; these are the issuer's, shown to every cardholder as they are.
public struct ActivationMethodSettings: Sendable, Equatable {
    /// The number to reach an agent (MDES `CARDHOLDER_TO_CALL_MANNED_NUMBER`).
    public var customerServicePhoneNumber: String?
    /// An automated line (MDES `CARDHOLDER_TO_CALL_AUTOMATED_NUMBER`).
    public var automatedPhoneNumber: String?
    /// The issuer app as the wallet knows it (MDES `CARDHOLDER_TO_USE_MOBILE_APP`).
    public var appIdentifier: String?

    public init(customerServicePhoneNumber: String? = nil, automatedPhoneNumber: String? = nil, appIdentifier: String? = nil) {
        self.customerServicePhoneNumber = customerServicePhoneNumber
        self.automatedPhoneNumber = automatedPhoneNumber
        self.appIdentifier = appIdentifier
    }

    /// None set: the standard for a tenant that never set any.
    public static let none = ActivationMethodSettings()

    /// Each value within its rule: 1 to 64 characters (MDES's limit on a method's `value`),
    /// never a card number (they are stored and shown in clear).
    public func validate() throws {
        for (field, value) in [
            ("customer_service_phone_number", customerServicePhoneNumber), ("automated_phone_number", automatedPhoneNumber),
        ] {
            guard let value else { continue }
            try Self.validatePhoneNumber(value, field: field)
        }
        if let appIdentifier { try Self.validateAppIdentifier(appIdentifier) }
    }

    /// Letters (for vanity numbers such as `1-800-BANK-NUMBER`), digits, spaces and `+ ( ) . -`,
    /// with at least four digits: what the cardholder dials.
    static func validatePhoneNumber(_ value: String, field: String) throws {
        let allowed = value.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || " +().-".unicodeScalars.contains(scalar))
        }
        let digits = value.unicodeScalars.filter { ("0"..."9").contains($0) }.count
        guard (1...64).contains(value.unicodeScalars.count), allowed, digits >= 4,
            value.first != " ", value.last != " "
        else {
            throw ProvisioError(
                .invalidParameter,
                "\(field) must be 1 to 64 of letters, digits, spaces and + ( ) . -, with at least four digits.")
        }
        try CardService.refuseCardNumber(in: value, field: field)
    }

    /// A bundle identifier or package name: letters, digits and `. _ : -`, starting with a
    /// letter or digit.
    static func validateAppIdentifier(_ value: String) throws {
        let scalars = value.unicodeScalars
        let allowed = scalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._:-".unicodeScalars.contains(scalar))
        }
        guard (1...64).contains(scalars.count), allowed, let first = scalars.first, first.isASCII,
            CharacterSet.alphanumerics.contains(first)
        else {
            throw ProvisioError(
                .invalidParameter,
                "app_identifier must be 1 to 64 of letters, digits and . _ : -, starting with a letter or digit.")
        }
        try CardService.refuseCardNumber(in: value, field: "app_identifier")
    }
}
