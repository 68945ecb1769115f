import Foundation
import ProvisioCore
import ProvisioCrypto

/// The payload request `provisio apple-payload` reads: `ApplePayloadRequest.decode(from:)`, which
/// parses the PAN, the expiry, the name, the nonce and its signature (hex or base64) and the
/// encryption scheme, then the expiry check the builder makes.
///
/// Accepted: the PAN is the input's digits, 13–19 of them, Luhn-valid (checked independently) and
/// re-parses to itself; the expiry and the name re-parse to themselves and the card is not expired;
/// nonce and signature are non-empty, within their bounds and the decoding of the input text; the
/// scheme is the input's; the sealed JSON carries exactly these values; the request's description
/// shows no more of the PAN than its last four digits. Refused: the common checks, with the seed
/// PANs, names, nonces and signatures — and the digits of this input's PAN — as secrets.
public struct ApplePayloadRequestTarget: FuzzTarget {
    public let name = "payload-request"
    public var seedSecrets = SecretFragments()

    /// The fixed "now" of every run: 2026-01-01T00:00:00Z.
    public static let time = Date(timeIntervalSince1970: 1_767_225_600)
    public static let codes: Set<String> = [
        "invalid_request", "invalid_pan", "invalid_expiry", "card_expired", "invalid_cardholder_name", "invalid_nonce",
        "invalid_nonce_signature", "unsupported_encryption_scheme",
    ]
    static let secretKeys = ["primaryAccountNumber", "name", "nonce", "nonceSignature"]

    public init() {}

    public var dictionary: [[UInt8]] {
        [
            #""primaryAccountNumber":"#, #""expiration":"#, #""name":"#, #""certificates":"#, #""nonce":"#,
            #""nonceSignature":"#, #""encryptionScheme":"#, #""ECC_V2""#, #""RSA_V2""#, #""ecc_v2""#, "null", "[]",
            "{}", "12/30", "00/30", "13/30", "1/30", "12/2030", "12/1999", "１２/３０", "4111 1111 1111 1111",
            "4111-1111-1111-1111", "0000000000000", "4111111111111111111", "41111111111111111111", "==", "=", "-_",
            "+/", "0x", " ", "\\n", "\\t", "\\u0000", "\\u00a0", "\\u2028", "\\u0007",
        ].map { Array($0.utf8) }
    }

    public func secrets(inSeed seed: [UInt8]) -> [[UInt8]] {
        Self.secretKeys.flatMap { LenientJSON.values(forKey: $0, in: seed) }
    }

    public func withSeedSecrets(_ secrets: SecretFragments) -> ApplePayloadRequestTarget {
        var copy = self
        copy.seedSecrets = secrets
        return copy
    }

    public func run(input: [UInt8]) -> FuzzOutcome {
        let request: ApplePayloadRequest
        let text: InputText
        do {
            request = try ApplePayloadRequest.decode(from: Data(input))
            try request.expiry.requireValid(at: Self.time)
            // What the input says, read again on its own to compare the checked values with.
            text = try JSONDecoder().decode(InputText.self, from: Data(input))
        } catch {
            let pans = LenientJSON.values(forKey: "primaryAccountNumber", in: input).flatMap(FuzzChecks.digitRuns)
            return FuzzChecks.refusal(error, codes: Self.codes, secrets: seedSecrets, inputSecrets: pans)
        }
        let payload = request.payload

        // The card number.
        let digits = String(text.primaryAccountNumber.unicodeScalars.filter { $0 != " " && $0 != "-" }.map(Character.init))
        let pan = payload.primaryAccountNumber.unmaskedDigits
        guard pan == digits else { return .violation("the PAN is not the input's digits") }
        guard (13...19).contains(pan.utf8.count), pan.utf8.allSatisfy({ (0x30...0x39).contains($0) }), !pan.hasPrefix("0")
        else { return .violation("accepted a PAN that is not 13–19 digits starting 1–9") }
        guard Self.passesLuhn(pan) else { return .violation("accepted a PAN that fails the Luhn check") }
        guard (try? PrimaryAccountNumber(pan)) == payload.primaryAccountNumber else {
            return .violation("the PAN does not re-parse to itself")
        }

        // Expiry and name.
        let expiry = payload.expiry
        guard (1...12).contains(expiry.month), (2000...2099).contains(expiry.year),
            (try? CardExpiry(slashed: expiry.slashed)) == expiry
        else { return .violation("the expiry \(expiry.slashed) does not re-parse to itself") }
        guard !expiry.isExpired(at: Self.time) else { return .violation("accepted an expired card") }
        let name = payload.name.value
        guard !name.isEmpty, name.count <= CardholderName.maximumLength, (try? CardholderName(name))?.value == name,
            name.first?.isWhitespace == false, name.last?.isWhitespace == false
        else { return .violation("the cardholder name is not normalised (or does not re-parse to itself)") }

        // Nonce, signature (what their text encodes, decoded independently), scheme.
        for (field, bytes, text, limit) in [
            ("nonce", payload.nonce, text.nonce, PassKitChallenge.maximumNonceLength),
            ("nonceSignature", payload.nonceSignature, text.nonceSignature, PassKitChallenge.maximumNonceSignatureLength),
        ] {
            guard !bytes.isEmpty, bytes.count <= limit else {
                return .violation("accepted a \(field) of \(bytes.count) bytes (non-empty, at most \(limit), promised)")
            }
            guard let strict = StrictBinaryText.decodeHexOrBase64(text) else {
                return .violation(
                    "accepted a \(field) whose text is not strict hex or base64 (decoded to \(FuzzHex.encode(bytes.prefix(16))))")
            }
            guard strict == Array(bytes) else {
                return .violation("the \(field) bytes are not what its text encodes")
            }
        }
        guard request.challenge.scheme == EncryptionScheme(rawValue: (text.encryptionScheme ?? "ECC_V2").uppercased()) else {
            return .violation("the encryption scheme is not the input's")
        }

        // What gets sealed carries exactly these values.
        guard let sealed = try? JSONSerialization.jsonObject(with: payload.jsonData()) as? [String: String],
            sealed == [
                "primaryAccountNumber": pan, "expiration": expiry.slashed, "name": name,
                "nonce": BinaryText.lowercaseHex(payload.nonce),
                "nonceSignature": BinaryText.lowercaseHex(payload.nonceSignature),
            ]
        else { return .violation("the sealed JSON does not carry the validated values") }

        // Describing the request shows the last four digits only.
        if SecretFragments([Array(pan.utf8)]).leak(in: Array(String(describing: request).utf8)) != nil {
            return .violation("the request's description shows more of the PAN than its last four digits")
        }
        return .accepted
    }

    /// The fields whose checked values are compared with their text.
    private struct InputText: Decodable {
        var primaryAccountNumber: String
        var nonce: String
        var nonceSignature: String
        var encryptionScheme: String?
    }

    /// Luhn, written again here so a regression in the parser's copy is caught.
    static func passesLuhn(_ digits: String) -> Bool {
        var sum = 0
        for (index, byte) in digits.utf8.reversed().enumerated() {
            let digit = Int(byte) - 48
            sum += index % 2 == 1 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit
        }
        return sum % 10 == 0
    }
}
