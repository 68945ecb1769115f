/// Why an OpenPGP operation, or the Google opaque payment card built on it, failed: a stable,
/// machine-readable code and a message for people.
///
/// Messages never carry key material, session keys, plaintext or the bytes of the input: a
/// caller may log them and answer them on a wire. Codes are `snake_case`, prefixed `openpgp_`
/// (`google_opc_` for the card's own checks), and stable once released, like the codes of
/// error-codes.yaml.
public struct OpenPGPError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// A packet's framing or body does not parse (length past the end, bad MPI, bad subpacket).
        case malformedPacket = "openpgp_malformed_packet"
        /// ASCII armour without its lines, with bad base64, or with BEGIN and END that disagree.
        case malformedArmor = "openpgp_malformed_armor"
        /// The armour's CRC-24 does not match its data (RFC 4880 §6.1): a transcription error.
        case armorChecksumMismatch = "openpgp_armor_checksum_mismatch"
        /// Packets that parse but are not in the order the grammar allows (RFC 9580 §10.3).
        case unexpectedPacket = "openpgp_unexpected_packet"
        /// An algorithm this module does not implement, or refuses (SHA-1 signatures, BZip2, DSA…).
        case unsupportedAlgorithm = "openpgp_unsupported_algorithm"
        /// A packet version or kind this module does not implement or refuses (v5/v6 keys, SEIPD
        /// v2, data encrypted without an integrity check, password-encrypted session keys).
        case unsupportedPacket = "openpgp_unsupported_packet"
        /// Input over a size or count limit of `OpenPGPLimits` (the message says which).
        case limitExceeded = "openpgp_limit_exceeded"
        /// No session key packet of the message is addressed to any of the given secret keys.
        case notForRecipient = "openpgp_not_for_recipient"
        /// The session key or the encrypted data does not check out: tampered ciphertext, a
        /// modification detection code that does not match, or a corrupted session key packet.
        /// One code for all three on purpose: telling them apart is a decryption oracle.
        case integrityCheckFailed = "openpgp_integrity_check_failed"
        /// A compressed packet that does not inflate.
        case decompressionFailed = "openpgp_decompression_failed"
        /// The message carries no signature.
        case unsigned = "openpgp_unsigned"
        /// No signature of the message was made by one of the given signers' keys.
        case unknownSigner = "openpgp_unknown_signer"
        /// A signature by a known signer does not verify (or was not valid when it was made).
        case badSignature = "openpgp_bad_signature"
        /// A key whose structure or self-signatures do not hold.
        case invalidKey = "openpgp_invalid_key"
        /// A valid key that cannot do what was asked: expired, revoked, too weak, or without a
        /// signing or encryption capability.
        case keyUnusable = "openpgp_key_unusable"
        /// A secret key protected by a passphrase: this module reads unprotected secret keys only.
        case secretKeyProtected = "openpgp_secret_key_protected"
        /// The cryptographic library refused an operation (e.g. key generation failed).
        case cryptoFailure = "openpgp_crypto_failure"
        /// A card number, expiry or server session id that Google's OPC schema does not allow.
        case googleOPCInvalidCard = "google_opc_invalid_card"
        /// The Google OPC is not base64 (standard or URL-safe alphabet), or is too long.
        case googleOPCNotBase64 = "google_opc_not_base64"
        /// The decrypted, verified content is not the Google OPC's JSON.
        case googleOPCMalformed = "google_opc_malformed"
        /// The Google OPC names another server session than the one being provisioned.
        case googleOPCSessionMismatch = "google_opc_session_mismatch"
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
