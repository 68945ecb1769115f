import Foundation
import ProvisioCore

/// Everything an issuer sets on a card product (`/v1/card-products`) but its art: what the
/// wallets show and honour for its cards, and the activation methods it offers. Stored as one
/// JSON document per product; `validate` holds every field to its rule before it is stored.
public struct CardProductSettings: Sendable, Equatable, Codable {
    public var name: String
    public var appLaunchURL: String?
    public var associatedApplicationIdentifiers: [String] = []
    public var associatedStoreIdentifiers: [Int] = []
    public var contactName: String?
    public var supportPhone: String?
    public var supportEmail: String?
    public var supportURL: String?
    public var termsURL: String?
    public var termsVersion: String?
    /// Raw values of `ActivationMethod`, in the order given.
    public var activationMethods: [String] = Self.allActivationMethods

    public init(name: String) {
        self.name = name
    }

    /// Every method a product may offer, in the order a wallet lists them.
    public static let allActivationMethods = ["app_to_app", "otp_sms", "otp_email", "customer_service"]
    /// How many app or store identifiers a product may name.
    public static let maximumIdentifiers = 16

    /// Checks every field (and trims the free texts), throwing `invalid_parameter` or
    /// `card_number_in_text` naming the first field out of its rule.
    public mutating func validate() throws {
        name = try CardService.validateText(name, field: "name", maximum: 64)
        contactName = try contactName.map { try CardService.validateText($0, field: "contact_name", maximum: 64) }
        if let appLaunchURL { try Self.validateLaunchURL(appLaunchURL) }
        try Self.validateAppIdentifiers(associatedApplicationIdentifiers)
        guard associatedStoreIdentifiers.count <= Self.maximumIdentifiers,
            Set(associatedStoreIdentifiers).count == associatedStoreIdentifiers.count,
            associatedStoreIdentifiers.allSatisfy({ (1...99_999_999_999).contains($0) })
        else {
            throw ProvisioError(
                .invalidParameter,
                "associated_store_identifiers must be at most \(Self.maximumIdentifiers) different App Store ids.")
        }
        if let supportPhone { try ActivationMethodSettings.validatePhoneNumber(supportPhone, field: "support_phone") }
        if let supportEmail { try Self.validateEmail(supportEmail, field: "support_email") }
        if let supportURL { try Self.validateHTTPSURL(supportURL, field: "support_url") }
        if let termsURL { try Self.validateHTTPSURL(termsURL, field: "terms_url") }
        if let termsVersion {
            guard (1...32).contains(termsVersion.unicodeScalars.count),
                termsVersion.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
            else { throw ProvisioError(.invalidParameter, "terms_version must be 1 to 32 visible ASCII characters.") }
            try CardService.refuseCardNumber(in: termsVersion, field: "terms_version")
        }
        guard (termsURL == nil) == (termsVersion == nil) else {
            throw ProvisioError(.invalidParameter, "terms_url and terms_version go together: give both or neither.")
        }
        guard !activationMethods.isEmpty, Set(activationMethods).count == activationMethods.count,
            activationMethods.allSatisfy(Self.allActivationMethods.contains)
        else {
            throw ProvisioError(
                .invalidParameter,
                "activation_methods must be one or more different of \(Self.allActivationMethods.joined(separator: ", ")).")
        }
    }

    /// An absolute URL with its scheme: https or the app's own scheme; never plain http or a
    /// scheme that runs or reads something (`javascript:`, `data:`, `file:`).
    static func validateLaunchURL(_ value: String) throws {
        let refused: Set<String> = ["http", "javascript", "data", "file", "vbscript", "about", "blob"]
        guard value.utf8.count <= 2048, !value.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }),
            let components = URLComponents(string: value), let scheme = components.scheme?.lowercased(),
            !refused.contains(scheme), value.contains(":")
        else {
            throw ProvisioError(
                .invalidParameter,
                "app_launch_url must be an absolute URL of at most 2048 characters, https or the app's own scheme.")
        }
        try CardService.refuseCardNumber(in: value, field: "app_launch_url")
    }

    static func validateHTTPSURL(_ value: String, field: String) throws {
        _ = try CardService.validateHTTPSURL(value, field: field)
        try CardService.refuseCardNumber(in: value, field: field)
    }

    /// An address held to the same rule as a cardholder's (`CardholderEmail`).
    static func validateEmail(_ value: String, field: String) throws {
        guard CardholderEmail.isValid(value) else {
            throw ProvisioError(.invalidParameter, "\(field) must be an email address of at most 254 characters.")
        }
        try CardService.refuseCardNumber(in: value, field: field)
    }

    /// Apple's `TEAMID.bundle.id` or an Android package name: 1 to 128 of letters, digits and
    /// `. _ -`, each once.
    static func validateAppIdentifiers(_ values: [String]) throws {
        let valid = values.allSatisfy { value in
            (1...128).contains(value.unicodeScalars.count)
                && value.unicodeScalars.allSatisfy {
                    $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
                }
        }
        guard values.count <= maximumIdentifiers, Set(values).count == values.count, valid else {
            throw ProvisioError(
                .invalidParameter,
                "associated_application_identifiers must be at most \(maximumIdentifiers) different identifiers of 1 to 128 letters, digits and . _ -."
            )
        }
        for value in values { try CardService.refuseCardNumber(in: value, field: "associated_application_identifiers") }
    }
}
