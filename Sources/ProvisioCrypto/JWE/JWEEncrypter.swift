import Crypto
import Foundation
import ProvisioCore

/// Encrypts to a card network's P-256 encryption key as a JWE in compact serialization, with
/// ECDH-ES direct key agreement and A256GCM (RFC 7516, RFC 7518 §4.6) — the form in which Google
/// Pay and Samsung Pay carry the opaque payment card.
///
/// Each call draws a fresh ephemeral key and a fresh random 96-bit IV. The key is agreed directly
/// (no wrapped key), so the encrypted-key segment is empty: `header..iv.ciphertext.tag`.
public struct JWEEncrypter: Sendable {
    public static let algorithm = "ECDH-ES"
    public static let encryption = "A256GCM"

    public let recipient: P256.KeyAgreement.PublicKey
    /// Written as "kid" so the network can pick which of its keys to decrypt with.
    public let keyID: String?

    public init(recipient: P256.KeyAgreement.PublicKey, keyID: String? = nil) {
        self.recipient = recipient
        self.keyID = keyID
    }

    /// - Parameter contentType: written as "cty" when given.
    public func encrypt(_ plaintext: Data, contentType: String? = nil) throws -> String {
        try encrypt(plaintext, contentType: contentType, ephemeralKey: EphemeralKeyAgreementKey.generate(), iv: AES.GCM.Nonce())
    }

    /// The seam for known-answer tests: the public API never lets a caller choose the key or IV.
    func encrypt(
        _ plaintext: Data, contentType: String?, ephemeralKey: P256.KeyAgreement.PrivateKey, iv: AES.GCM.Nonce
    ) throws -> String {
        let ivBytes = iv.withUnsafeBytes { Data($0) }
        precondition(ivBytes.count == 12, "A256GCM in JWE takes a 96-bit IV")

        let header = Base64URL.encode(Data(protectedHeader(ephemeralKey: ephemeralKey.publicKey, contentType: contentType).utf8))
        let sharedSecret = try ephemeralKey.sharedSecretFromKeyAgreement(with: recipient)
        // No apu/apv: we have nothing useful to put there, and RFC 7518 makes them optional.
        let key = ConcatKDF.symmetricKey(sharedSecret: sharedSecret, algorithmID: Self.encryption, keyDataLength: 256)
        // The AAD is the header exactly as it travels, base64url text and all.
        let box = try AES.GCM.seal(plaintext, using: key, nonce: iv, authenticating: Data(header.utf8))
        return [header, "", Base64URL.encode(ivBytes), Base64URL.encode(box.ciphertext), Base64URL.encode(box.tag)]
            .joined(separator: ".")
    }

    /// Written by hand rather than with `JSONEncoder` so the bytes, and so the AAD, are the
    /// same on every platform: member order fixed, no escaped slashes.
    private func protectedHeader(ephemeralKey: P256.KeyAgreement.PublicKey, contentType: String?) -> String {
        let point = ephemeralKey.rawRepresentation  // x ‖ y, 32 bytes each
        let x = Base64URL.encode(point.prefix(32))
        let y = Base64URL.encode(point.suffix(32))
        var json = #"{"alg":"\#(Self.algorithm)","enc":"\#(Self.encryption)","#
        json += #""epk":{"kty":"EC","crv":"P-256","x":"\#(x)","y":"\#(y)"}"#
        if let keyID { json += #","kid":"# + Self.jsonString(keyID) }
        if let contentType { json += #","cty":"# + Self.jsonString(contentType) }
        return json + "}"
    }

    private static func jsonString(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
