import Foundation
import ProvisioCore

/// Everything the Apple payload is built from, as checked values: the card (PAN, expiry,
/// cardholder name) and PassKit's challenge. The server makes one from a card record and the
/// request's challenge; `provisio apple-payload` reads one from its JSON input (`decode`).
public struct ApplePayloadRequest: Sendable {
    public let primaryAccountNumber: PrimaryAccountNumber
    public let expiry: CardExpiry
    public let name: CardholderName
    public let challenge: PassKitChallenge

    public init(
        primaryAccountNumber: PrimaryAccountNumber, expiry: CardExpiry, name: CardholderName, challenge: PassKitChallenge
    ) {
        self.primaryAccountNumber = primaryAccountNumber
        self.expiry = expiry
        self.name = name
        self.challenge = challenge
    }

    /// What gets sealed to Apple's leaf key.
    public var payload: ApplePassPayload {
        ApplePassPayload(
            primaryAccountNumber: primaryAccountNumber, expiry: expiry, name: name, nonce: challenge.nonce,
            nonceSignature: challenge.nonceSignature)
    }

    /// Reads `provisio apple-payload`'s input, `{"primaryAccountNumber", "expiration": "MM/YY",
    /// "name", "certificates", "nonce", "nonceSignature", "encryptionScheme"?}`, into checked
    /// values, field by field in that order: a missing or mistyped field is `invalid_request`,
    /// a bad value its field's code (`invalid_pan`, `invalid_expiry`, …).
    public static func decode(from json: Data) throws -> ApplePayloadRequest {
        let text: Text
        do {
            text = try JSONDecoder().decode(Text.self, from: json)
        } catch DecodingError.keyNotFound(let key, _) {
            throw ProvisioError(.invalidRequest, "The request is missing the field '\(key.stringValue)'.")
        } catch DecodingError.typeMismatch(_, let context) {
            throw ProvisioError(
                .invalidRequest, "The field '\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type."
            )
        } catch DecodingError.valueNotFound(_, let context) {
            throw ProvisioError(
                .invalidRequest, "The field '\(context.codingPath.map(\.stringValue).joined(separator: "."))' is null.")
        } catch {
            throw ProvisioError(.invalidRequest, "The request is not a JSON object.")
        }
        return ApplePayloadRequest(
            primaryAccountNumber: try PrimaryAccountNumber(text.primaryAccountNumber),
            expiry: try CardExpiry(slashed: text.expiration), name: try CardholderName(text.name),
            challenge: try PassKitChallenge(
                certificates: text.certificates, nonceText: text.nonce, nonceSignatureText: text.nonceSignature,
                schemeName: text.encryptionScheme))
    }

    /// The input as it is written, before any of it is checked; never leaves `decode`.
    private struct Text: Decodable {
        var primaryAccountNumber: String
        var expiration: String
        var name: String
        var certificates: [String]
        var nonce: String
        var nonceSignature: String
        var encryptionScheme: String?
    }
}

/// Describing a request (a log line, a test failure, a debugger) shows only the PAN's last
/// four digits.
extension ApplePayloadRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "ApplePayloadRequest(primaryAccountNumber: \(primaryAccountNumber), expiration: \(expiry.slashed), "
            + "certificates: \(challenge.certificates.count), encryptionScheme: \(challenge.scheme.rawValue))"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
