import ProvisioCore

/// The device a token is for, as the card network describes it when it asks for a one-time code;
/// passed on to the issuer's webhook. Every field is optional: 1 to 64 characters, no control
/// character, never a card number; the IMEI 14 to 16 digits, the MSISDN an optional `+` and 1 to
/// 15 digits.
public struct OTPDeviceInfo: Sendable, Equatable {
    public var name: String?
    public var os: String?
    public var osVersion: String?
    public var serialNumber: String?
    public var imei: String?
    public var msisdn: String?

    public init(
        name: String? = nil, os: String? = nil, osVersion: String? = nil, serialNumber: String? = nil, imei: String? = nil,
        msisdn: String? = nil
    ) {
        self.name = name
        self.os = os
        self.osVersion = osVersion
        self.serialNumber = serialNumber
        self.imei = imei
        self.msisdn = msisdn
    }

    /// `invalid_parameter` or `card_number_in_text` for the first field out of its rule.
    public func validate() throws {
        for (field, value) in [("device.name", name), ("device.os", os), ("device.os_version", osVersion)] {
            guard let value else { continue }
            try Self.validateField(value, field: field)
        }
        if let serialNumber { try Self.validateIdentifier(serialNumber, field: "device.serial_number") }
        // An IMEI carries a Luhn check digit like a card number, and a phone number may pass
        // it: both are held to their own shape instead.
        if let imei, !(14...16).contains(imei.utf8.count) || !imei.utf8.allSatisfy(Self.isDigit) {
            throw ProvisioError(.invalidParameter, "device.imei must be 14 to 16 digits.")
        }
        if let msisdn {
            let digits = msisdn.utf8.first == UInt8(ascii: "+") ? msisdn.utf8.dropFirst() : msisdn.utf8[...]
            guard (1...15).contains(digits.count), digits.allSatisfy(Self.isDigit) else {
                throw ProvisioError(.invalidParameter, "device.msisdn must be an optional + and 1 to 15 digits.")
            }
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// An opaque identifier (a serial number, a challenge or requestor id): 1 to 64 characters
    /// without control characters, refused only when it is itself a card number. Random
    /// letters-and-digits ids often hold a run of digits that passes the Luhn check by chance.
    static func validateIdentifier(_ value: String, field: String) throws {
        guard (1...64).contains(value.unicodeScalars.count),
            !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw ProvisioError(.invalidParameter, "\(field) must be 1 to 64 characters without control characters.")
        }
        try refuseWholeCardNumber(value, field: field)
    }

    /// `card_number_in_text` when the value is only digits (spaces and dashes aside) forming a
    /// card number.
    static func refuseWholeCardNumber(_ value: String, field: String) throws {
        let onlyDigits = value.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || $0 == " " || $0 == "-" }
        if onlyDigits, CardNumberPattern.containsCardNumber(value) {
            throw ProvisioError(.cardNumberInText, "\(field) holds what looks like a card number; it must not.")
        }
    }

    /// 1 to 64 characters without control characters, and no card number.
    static func validateField(_ value: String, field: String) throws {
        guard (1...64).contains(value.unicodeScalars.count),
            !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw ProvisioError(.invalidParameter, "\(field) must be 1 to 64 characters without control characters.")
        }
        try CardService.refuseCardNumber(in: value, field: field)
    }
}
