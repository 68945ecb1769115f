import Foundation
import ProvisioCore

/// One request to build Apple's provisioning payload, as an issuer tool or app backend sends
/// it: card data plus what PassKit handed to the app (`certificates`, `nonce`,
/// `nonceSignature`). Binary values arrive as text and are decoded by `validated(at:)`.
public struct ApplePayloadRequest: Codable, Sendable {
    public var primaryAccountNumber: String
    public var expiration: String
    public var name: String
    public var certificates: [String]
    public var nonce: String
    public var nonceSignature: String
    public var encryptionScheme: String?

    /// PassKit's nonce is a few bytes and its signature a DER ECDSA signature; the bounds keep
    /// absurd inputs out while leaving room for any real value.
    public static let maximumNonceLength = 256
    public static let maximumNonceSignatureLength = 1024

    public init(
        primaryAccountNumber: String, expiration: String, name: String, certificates: [String], nonce: String,
        nonceSignature: String, encryptionScheme: String? = nil
    ) {
        self.primaryAccountNumber = primaryAccountNumber
        self.expiration = expiration
        self.name = name
        self.certificates = certificates
        self.nonce = nonce
        self.nonceSignature = nonceSignature
        self.encryptionScheme = encryptionScheme
    }

    /// Decodes a request from JSON; a missing or mistyped field is `invalid_request`.
    public static func decode(from json: Data) throws -> ApplePayloadRequest {
        do {
            return try JSONDecoder().decode(ApplePayloadRequest.self, from: json)
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
    }

    /// Checks and decodes every field except the certificate chain (validated separately,
    /// because it needs trust anchors and a time).
    public func validated(at time: Date) throws -> (payload: ApplePassPayload, scheme: EncryptionScheme) {
        let pan = try PrimaryAccountNumber(primaryAccountNumber)
        let expiry = try CardExpiry(slashed: expiration)
        try expiry.requireValid(at: time)
        let name = try CardholderName(name)
        guard let nonceBytes = BinaryText.decodeHexOrBase64(nonce), nonceBytes.count <= Self.maximumNonceLength else {
            throw ProvisioError(
                .invalidNonce, "The nonce must be non-empty hex or base64, at most \(Self.maximumNonceLength) bytes.")
        }
        guard let signatureBytes = BinaryText.decodeHexOrBase64(nonceSignature),
            signatureBytes.count <= Self.maximumNonceSignatureLength
        else {
            throw ProvisioError(
                .invalidNonceSignature,
                "The nonce signature must be non-empty hex or base64, at most \(Self.maximumNonceSignatureLength) bytes.")
        }
        let scheme = try encryptionScheme.map(EncryptionScheme.init(wireName:)) ?? .eccV2
        let payload = ApplePassPayload(
            primaryAccountNumber: pan, expiry: expiry, name: name, nonce: nonceBytes, nonceSignature: signatureBytes)
        return (payload, scheme)
    }
}

extension ProvisioError.Code {
    public static let invalidNonce = Self("invalid_nonce", status: .badRequest)
    public static let invalidNonceSignature = Self("invalid_nonce_signature", status: .badRequest)
}

/// The raw request holds an unvalidated PAN; describing it (a log line, a test failure, a
/// debugger) shows only the last four digits.
extension ApplePayloadRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "ApplePayloadRequest(primaryAccountNumber: •••• \(primaryAccountNumber.suffix(4)), expiration: \(expiration), "
            + "certificates: \(certificates.count), encryptionScheme: \(encryptionScheme ?? "ECC_V2"))"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
