/// How `MDESPayloadEncryptor` builds an envelope: the choices the MDES document leaves to the
/// sender. The defaults are what the document recommends; every variant is there so a test (or
/// `provisio sandbox serve`) can make the issuer open each.
public struct MDESEnvelopeOptions: Sendable, Hashable {
    /// How the one-time AES key is wrapped with the receiver's RSA key.
    public enum KeyWrapping: String, Sendable, Hashable, CaseIterable {
        /// RSA-OAEP, SHA-256 for the digest and MGF1 (`oaepHashingAlgorithm` `SHA256`).
        case oaepSHA256 = "oaep-sha256"
        /// RSA-OAEP, SHA-512 for the digest and MGF1 (`oaepHashingAlgorithm` `SHA512`).
        case oaepSHA512 = "oaep-sha512"
        /// RSAES-PKCS1-v1_5, which the document means when `oaepHashingAlgorithm` is absent.
        case pkcs1v15 = "pkcs1"
    }

    /// How the data is encrypted with the AES key (`algorithmCipherMode`).
    public enum CipherMode: String, Sendable, Hashable, CaseIterable {
        /// AES-GCM with a 12-byte IV, a 16-byte `tag` and random `aad`.
        case gcm
        /// AES-CBC with a 16-byte IV and PKCS#7 padding.
        case cbc
    }

    /// The digest of the key's DER SubjectPublicKeyInfo that names it in `publicKeyFingerprint`.
    /// The document does not say which (docs/mdes.md): SHA-256 is what `tenants mdes-key` prints,
    /// SHA-1 what issuers report MDES sending.
    public enum FingerprintDigest: String, Sendable, Hashable, CaseIterable {
        case sha256
        case sha1
    }

    public var keyWrapping: KeyWrapping
    public var cipherMode: CipherMode
    /// 128 (the document's requirement) or 256 (its option).
    public var aesKeyBits: Int
    public var fingerprint: FingerprintDigest

    public init(
        keyWrapping: KeyWrapping = .oaepSHA256, cipherMode: CipherMode = .gcm, aesKeyBits: Int = 128,
        fingerprint: FingerprintDigest = .sha256
    ) {
        self.keyWrapping = keyWrapping
        self.cipherMode = cipherMode
        self.aesKeyBits = aesKeyBits
        self.fingerprint = fingerprint
    }

    /// Every combination the document allows: 3 wrappings × 2 modes × 2 key sizes.
    public static let allVariants: [MDESEnvelopeOptions] = KeyWrapping.allCases.flatMap { wrapping in
        CipherMode.allCases.flatMap { mode in
            [128, 256].map { MDESEnvelopeOptions(keyWrapping: wrapping, cipherMode: mode, aesKeyBits: $0) }
        }
    }
}
