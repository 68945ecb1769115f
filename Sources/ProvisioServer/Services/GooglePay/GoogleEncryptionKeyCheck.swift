import Foundation
import ProvisioCore
import ProvisioOpenPGP

/// Reads the Google encryption keys a tenant gives (`PUT /v1/settings/google-pay`) and refuses,
/// each with its own code, what could never encrypt a Google OPC: not OpenPGP, a secret key, RSA
/// under 2048 bits, expired, no key that may encrypt, too long, too many. Messages name a key by
/// its position only; its text is never echoed.
enum GoogleEncryptionKeyCheck {
    /// Google rotates its key with an overlap: two at once is the usual case, four is room.
    static let maximumKeys = 4
    /// An RSA-4096 key with a few signatures is under 4 KiB armoured.
    static let maximumCharacters = 32768

    /// Every key read and checked as of `time`, in order; the same key twice is refused.
    static func read(_ texts: [String], at time: Date) throws -> [OpenPGPPublicKey] {
        guard texts.count <= maximumKeys else {
            throw ProvisioError(.googlePayTooManyKeys, "At most \(maximumKeys) Google encryption keys may be set at once.")
        }
        var keys: [OpenPGPPublicKey] = []
        for (position, text) in texts.enumerated() {
            let key = try read(text, field: "google_encryption_keys[\(position)]", at: time)
            guard !keys.contains(where: { $0.fingerprint == key.fingerprint }) else {
                throw ProvisioError(.invalidParameter, "google_encryption_keys[\(position)] is the same key as an earlier one.")
            }
            keys.append(key)
        }
        return keys
    }

    static func read(_ text: String, field: String, at time: Date) throws -> OpenPGPPublicKey {
        guard text.utf8.count <= maximumCharacters else {
            throw ProvisioError(.googlePayKeyTooLarge, "\(field) is longer than \(maximumCharacters) characters.")
        }
        guard let bytes = bytes(of: text) else {
            throw ProvisioError(
                .googlePayKeyNotOpenpgp, "\(field) is neither an armoured OpenPGP public key nor one in base64.")
        }
        let key: OpenPGPPublicKey
        do {
            key = try OpenPGPPublicKey(bytes)
        } catch {
            throw refusal(of: bytes, error, field: field)
        }
        if let expiration = key.expiration, expiration <= time {
            throw ProvisioError(.googlePayKeyExpired, "\(field) (\(key.fingerprint)) has expired.")
        }
        guard canEncrypt(to: key, at: time) else {
            // OpenPGP leaves out subkeys under 2048 bits when it reads a key: read with a lower
            // bound, a key that has more of them lost one to its size, so it is weak rather than
            // unable to encrypt.
            var relaxed = OpenPGPLimits.default
            relaxed.minimumRSABits = 1024
            if let whole = try? OpenPGPPublicKey(bytes, limits: relaxed), whole.keyFingerprints.count > key.keyFingerprints.count
            {
                throw ProvisioError(.googlePayKeyTooWeak, "\(field) (\(key.fingerprint)) encrypts with RSA under 2048 bits.")
            }
            throw ProvisioError(
                .googlePayKeyCannotEncrypt, "\(field) (\(key.fingerprint)) has no valid key or subkey that may encrypt.")
        }
        return key
    }

    /// Armour as it is; anything else as base64 (standard alphabet, line breaks allowed).
    static func bytes(of text: String) -> Data? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("-----BEGIN PGP ") { return Data(trimmed.utf8) }
        return Data(base64Encoded: trimmed, options: .ignoreUnknownCharacters).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Why a text that is not a public key was refused: a secret key (readable, or protected by
    /// a passphrase), a key OpenPGP reads but refuses as too weak or of another algorithm, or
    /// anything else.
    static func refusal(of bytes: Data, _ error: OpenPGPError, field: String) -> ProvisioError {
        do {
            _ = try OpenPGPSecretKey(bytes)
            return secretKey(field)
        } catch let secretError {
            if secretError.code == .secretKeyProtected { return secretKey(field) }
        }
        switch error.code {
        case .keyUnusable, .unsupportedAlgorithm:
            return ProvisioError(.googlePayKeyTooWeak, "\(field) is not an RSA key of 2048 bits or more.")
        default:
            return ProvisioError(
                .googlePayKeyNotOpenpgp, "\(field) is not a readable OpenPGP public key (\(error.code.rawValue)).")
        }
    }

    private static func secretKey(_ field: String) -> ProvisioError {
        ProvisioError(.googlePayKeySecret, "\(field) is a secret key; give Google's public key only.")
    }

    /// Whether a message can be encrypted to `key` at `time`: OpenPGP picks the key's newest
    /// valid encryption-capable key, as for a real Google OPC.
    static func canEncrypt(to key: OpenPGPPublicKey, at time: Date) -> Bool {
        (try? key.checkEncryption(at: time)) != nil
    }
}
