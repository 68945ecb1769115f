import Foundation

/// Google's opaque payment card ("Google OPC"): the card number and expiry an issuer hands
/// Google Wallet in push provisioning (docs/android-wallets.md §2, from Google's page
/// `push-provisioning-google-opc`). Its JSON is
/// `{"protocolHeader":{"version":1},"validationContext":{"serverSessionId":…},
/// "paymentCard":{"accountNumber":…,"expiryMonth":"MM","expiryYear":"YY"}}`; it travels signed
/// with the issuer's OpenPGP key and encrypted to Google's, then in standard base64.
///
/// `serverSessionId` is what Google gave the app for this push: Google compares it with what it
/// holds, so an OPC cannot be replayed into another session.
public struct GoogleOpaquePaymentCard: Sendable, Equatable, CustomStringConvertible {
    /// `protocolHeader.version`: Google supplies it and changes it only for breaking changes.
    public static let protocolVersion = 1
    /// The longest `serverSessionId` taken; Google gives no bound, so this one is generous.
    public static let maximumSessionIDLength = 512
    /// The longest OPC `open` reads: a card's JSON signed and encrypted to a few RSA keys is a
    /// few kilobytes.
    public static let maximumOPCLength = 64 * 1024

    public let serverSessionID: String
    /// Digits only. A PAN: never log it (`description` masks it).
    public let accountNumber: String
    /// 1–12.
    public let expiryMonth: Int
    /// The last two digits of the year, as the OPC carries it.
    public let expiryYear: Int

    /// - Parameter expiryYear: four digits or two; the OPC keeps the last two.
    public init(serverSessionID: String, accountNumber: String, expiryMonth: Int, expiryYear: Int) throws {
        guard (12...19).contains(accountNumber.utf8.count), accountNumber.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        else { throw OpenPGPError(.googleOPCInvalidCard, "The card number must be 12 to 19 digits.") }
        guard (1...12).contains(expiryMonth) else {
            throw OpenPGPError(.googleOPCInvalidCard, "The expiry month must be 1 to 12.")
        }
        guard (0...9999).contains(expiryYear) else {
            throw OpenPGPError(.googleOPCInvalidCard, "The expiry year must be two or four digits.")
        }
        guard (1...Self.maximumSessionIDLength).contains(serverSessionID.utf8.count),
            serverSessionID.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else {
            throw OpenPGPError(
                .googleOPCInvalidCard,
                "The server session id must be 1 to \(Self.maximumSessionIDLength) visible ASCII characters.")
        }
        self.serverSessionID = serverSessionID
        self.accountNumber = accountNumber
        self.expiryMonth = expiryMonth
        self.expiryYear = expiryYear % 100
    }

    public var description: String {
        "GoogleOpaquePaymentCard(••••\(accountNumber.suffix(4)), session \(serverSessionID))"
    }

    // MARK: - JSON

    private struct Wire: Codable {
        struct Header: Codable { var version: Version }
        struct Context: Codable { var serverSessionId: String }
        struct Card: Codable {
            var accountNumber: String
            var expiryMonth: String
            var expiryYear: String
        }
        var protocolHeader: Header
        var validationContext: Context
        var paymentCard: Card
    }

    /// `Int64Value` in Google's JSON: written as a number, as Google's example does, and read as
    /// a number or a string, as protocol buffers' JSON mapping allows.
    private struct Version: Codable {
        var value: Int

        init(_ value: Int) { self.value = value }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                value = number
            } else if let text = try? container.decode(String.self), let number = Int(text) {
                value = number
            } else {
                throw OpenPGPError(.googleOPCMalformed, "protocolHeader.version is not a number.")
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    /// The JSON Google reads (keys sorted, so the same card always gives the same bytes).
    public var json: Data {
        let wire = Wire(
            protocolHeader: .init(version: Version(Self.protocolVersion)),
            validationContext: .init(serverSessionId: serverSessionID),
            paymentCard: .init(
                accountNumber: accountNumber, expiryMonth: Self.twoDigits(expiryMonth), expiryYear: Self.twoDigits(expiryYear)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and small integers only: encoding cannot fail.
        return try! encoder.encode(wire)
    }

    /// Reads the JSON: the three objects, a known version, two-digit month and year.
    public init(json: Data) throws {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: json)
        } catch let error as OpenPGPError {
            throw error
        } catch {
            throw OpenPGPError(.googleOPCMalformed, "The content is not the opaque payment card's JSON.")
        }
        guard wire.protocolHeader.version.value == Self.protocolVersion else {
            throw OpenPGPError(
                .googleOPCMalformed, "protocolHeader.version \(wire.protocolHeader.version.value) is not \(Self.protocolVersion)."
            )
        }
        let card = wire.paymentCard
        func twoDigits(_ text: String) -> Int? {
            text.utf8.count == 2 && text.utf8.allSatisfy { (0x30...0x39).contains($0) } ? Int(text) : nil
        }
        guard let month = twoDigits(card.expiryMonth), let year = twoDigits(card.expiryYear) else {
            throw OpenPGPError(.googleOPCMalformed, "expiryMonth and expiryYear must be two digits each.")
        }
        try self.init(
            serverSessionID: wire.validationContext.serverSessionId, accountNumber: card.accountNumber, expiryMonth: month,
            expiryYear: year)
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    // MARK: - The envelope

    /// The OPC as the app receives it: the JSON signed by `issuer` and encrypted to each of
    /// `googleKeys` (several while Google rotates its key), SHA-384 and AES-256 as Google asks,
    /// binary OpenPGP in standard base64. Uncompressed: compressing a card number together
    /// with a value from outside would let the length speak about the number.
    public func seal(issuer: OpenPGPSecretKey, googleKeys: [OpenPGPPublicKey], at time: Date) throws -> String {
        let message = try OpenPGPMessage.seal(
            json, signer: issuer, recipients: googleKeys, at: time,
            options: OpenPGPSealOptions(hash: .sha384, cipher: .aes256, compression: .uncompressed))
        return message.base64EncodedString()
    }

    /// Opens an OPC as Google does: base64 in either alphabet, decrypted with one of
    /// `googleKeys`, signed by one of `issuers`, and, when `serverSessionID` is given, naming it.
    public static func open(
        _ opc: String, googleKeys: [OpenPGPSecretKey], issuers: [OpenPGPPublicKey], serverSessionID: String?, at time: Date
    ) throws -> GoogleOpaquePaymentCard {
        guard opc.utf8.count <= Self.maximumOPCLength else {
            throw OpenPGPError(
                .googleOPCNotBase64, "The opaque payment card is longer than \(Self.maximumOPCLength) characters.")
        }
        guard let message = Self.base64(opc) else {
            throw OpenPGPError(.googleOPCNotBase64, "The opaque payment card is not base64.")
        }
        let opened = try OpenPGPMessage.open(message, recipientKeys: googleKeys, signers: issuers, at: time)
        let card = try GoogleOpaquePaymentCard(json: opened.data)
        if let serverSessionID, card.serverSessionID != serverSessionID {
            throw OpenPGPError(.googleOPCSessionMismatch, "The opaque payment card names another server session.")
        }
        return card
    }

    /// Standard or URL-safe base64, padded or not (Google's older page allows the URL-safe form).
    static func base64(_ text: String) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if standard.utf8.count % 4 != 0 { standard += String(repeating: "=", count: 4 - standard.utf8.count % 4) }
        return Data(base64Encoded: standard)
    }
}
