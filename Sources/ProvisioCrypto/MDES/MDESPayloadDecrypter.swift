import Crypto
import Foundation
import ProvisioCore
import _CryptoExtras

/// Opens MDES's `fundingAccountInfo.encryptedPayload` with the issuer's RSA keys: finds the key
/// the fingerprint names (two during a rotation, both able to decrypt), unwraps the one-time AES
/// key, decrypts the data and returns the plaintext bytes for the caller to parse. Pure: no
/// clock, no I/O (`dataValidUntilTimestamp` is inside the plaintext, for the caller).
///
/// Errors, each a `ProvisioError` whose message holds no key, PAN or decrypted byte:
/// - `mdes_payload_malformed`: the fields themselves are wrong (hex, lengths, names), checked
///   before any key is used;
/// - `mdes_key_unknown`: no key has the fingerprint;
/// - `mdes_payload_undecryptable`: everything after that. An unwrap that fails (padding, a key
///   that is not 128 or 256 bits) goes on through the AES step with a random stand-in key and
///   fails there, with the same code and message as a bad GCM tag or CBC padding, so that
///   neither the answer nor the work done tells a caller which part failed (Bleichenbacher,
///   Manger, CBC padding oracles).
///
/// Provisio's reading where the document is silent: an absent `algorithmCipherMode` is CBC; an
/// absent `aad` is no associated data (the document requires it with GCM; its content is not
/// described, so it is authenticated as the bytes its hex gives); the tag is the full 16 bytes;
/// `tag` or `aad` with CBC is refused, the document saying they are absent then.
public struct MDESPayloadDecrypter: Sendable {
    public let keys: [MDESIssuerKey]

    /// Decrypts with any of `keys` (the current key and, during a rotation, the previous one).
    public init(keys: [MDESIssuerKey]) throws {
        guard !keys.isEmpty else {
            throw ProvisioError(.mdesKeyInvalid, "An MDES payload decrypter needs at least one issuer key.")
        }
        guard Set(keys.map(\.publicKeyFingerprint)).count == keys.count else {
            throw ProvisioError(.mdesKeyInvalid, "The same MDES issuer key is listed twice.")
        }
        self.keys = keys
    }

    public func decrypt(_ payload: MDESEncryptedPayload) throws -> MDESDecryptedPayload {
        let wrapping = try MDESKeyWrapping(field: payload.oaepHashingAlgorithm)
        let mode = try MDESCipherMode(field: payload.algorithmCipherMode)
        let fingerprint = try Self.hex(payload.publicKeyFingerprint, field: "publicKeyFingerprint")
        let encryptedKey = try Self.hex(payload.encryptedKey, field: "encryptedKey")
        let data = try Self.hex(payload.encryptedData, field: "encryptedData")
        let iv = try payload.iv.map { try Self.hex($0, field: "iv") } ?? Data(count: mode.ivByteCount)
        guard iv.count == mode.ivByteCount else {
            throw ProvisioError(.mdesPayloadMalformed, "iv is not \(mode.ivByteCount) bytes, as \(mode.rawValue) needs.")
        }
        let cipher = try Self.cipher(mode: mode, iv: iv, data: data, payload: payload)

        guard let key = keys.first(where: { $0.isNamed(by: fingerprint) }) else {
            throw ProvisioError(.mdesKeyUnknown, "publicKeyFingerprint names none of the issuer's MDES keys.")
        }

        var unwrapped = key.unwrap(encryptedKey, wrapping: wrapping) ?? Data()
        let keyIsUsable = unwrapped.count == 16 || unwrapped.count == 32
        let aesKey = keyIsUsable ? SymmetricKey(data: unwrapped) : SymmetricKey(size: .bits128)
        SensitiveBytes.wipe(&unwrapped)

        let plaintext = try? cipher.open(data, key: aesKey)
        guard keyIsUsable, let plaintext else {
            throw ProvisioError(
                .mdesPayloadUndecryptable, "The payload does not decrypt with the MDES key its fingerprint names.")
        }
        return MDESDecryptedPayload(plaintext: plaintext, keyFingerprint: key.publicKeyFingerprint)
    }

    /// Strict hex (even length, hex digits only, not empty), case-insensitive as the document says.
    static func hex(_ text: String, field: String) throws -> Data {
        guard let bytes = BinaryText.decodeHex(text) else {
            throw ProvisioError(.mdesPayloadMalformed, "\(field) is not hex-encoded bytes.")
        }
        return bytes
    }

    /// The mode's parameters, checked against what the document allows for it.
    private static func cipher(
        mode: MDESCipherMode, iv: Data, data: Data, payload: MDESEncryptedPayload
    ) throws -> MDESPayloadCipher {
        switch mode {
        case .gcm:
            guard let tagText = payload.tag else {
                throw ProvisioError(.mdesPayloadMalformed, "A GCM payload carries a tag.")
            }
            let tag = try hex(tagText, field: "tag")
            guard tag.count == 16 else {
                throw ProvisioError(.mdesPayloadMalformed, "tag is not 16 bytes.")
            }
            let aad = try payload.aad.map { try hex($0, field: "aad") }
            return .gcm(nonce: try AES.GCM.Nonce(data: iv), tag: tag, aad: aad)
        case .cbc:
            guard payload.tag == nil, payload.aad == nil else {
                throw ProvisioError(.mdesPayloadMalformed, "A CBC payload carries neither tag nor aad.")
            }
            guard data.count % 16 == 0 else {
                throw ProvisioError(.mdesPayloadMalformed, "CBC encryptedData is not a whole number of AES blocks.")
            }
            return .cbc(iv: try AES._CBC.IV(ivBytes: iv))
        }
    }
}
