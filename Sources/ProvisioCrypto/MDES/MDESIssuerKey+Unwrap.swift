import Crypto
import Foundation
import _CryptoExtras

extension MDESIssuerKey {
    /// The one-time AES key inside `encryptedKey`, or nil for any failure (wrong length, not
    /// below the modulus, bad padding): the caller gives one answer for all of them.
    func unwrap(_ encryptedKey: Data, wrapping: MDESKeyWrapping) -> Data? {
        guard encryptedKey.count == modulusByteCount else { return nil }
        switch wrapping {
        case .oaepSHA256:
            return try? _RSA.Encryption.PrivateKey(derRepresentation: privateKeyDER)
                .decrypt(encryptedKey, padding: .PKCS1_OAEP_SHA256)
        case .pkcs1v15:
            // The document's own choice when no OAEP hash is named. BoringSSL's PKCS#1 v1.5
            // unpadding is constant-time; the caller hides its failure behind the AES step.
            return try? _RSA.Encryption.PrivateKey(derRepresentation: privateKeyDER)
                .decrypt(encryptedKey, padding: ._WEAK_AND_INSECURE_PKCS_V1_5)
        case .oaepSHA512:
            // swift-crypto has no OAEP-SHA512: RSADP through BoringSSL, then RSAOAEPDecoding.
            // (The hash parameter of a blind-signing key plays no part in `blindSignature`.)
            guard
                var raw = try? _RSA.BlindSigning.PrivateKey<SHA384>(derRepresentation: privateKeyDER)
                    .blindSignature(for: encryptedKey)
            else { return nil }
            var encoded = Array(raw.rawRepresentation)
            defer {
                SensitiveBytes.wipe(&raw.rawRepresentation)
                SensitiveBytes.wipe(&encoded)
            }
            guard var message = RSAOAEPDecoding.decode(encoded, hash: SHA512.self) else { return nil }
            defer { SensitiveBytes.wipe(&message) }
            return Data(message)
        }
    }
}
