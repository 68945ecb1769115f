import Crypto
import Foundation
import ProvisioCore

/// The on-disk layout of an issuer's keys (`provisio keys init --dir DIR`):
///
/// - `vault-keys.json` (0600): the PAN vault's key-encryption keys with their ids and status;
/// - `tav-signing-key.pem` (0600): the P-256 key that signs activation data (PKCS#8);
/// - `tav-public-key.pem` (0644): its public half, to hand to the card network;
/// - `pan-fingerprint-key` (0600): base64 of the 32-byte key that fingerprints PANs.
public struct KeyDirectory: Sendable {
    public static let vaultKeysFile = "vault-keys.json"
    public static let tavSigningKeyFile = "tav-signing-key.pem"
    public static let tavPublicKeyFile = "tav-public-key.pem"
    public static let panFingerprintKeyFile = "pan-fingerprint-key"

    public let path: String

    public init(path: String) {
        self.path = path
    }

    private func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Writes fresh key material; refuses if any key file is already there.
    @discardableResult
    public func initialize() throws -> ProvisioKeys {
        try SecretFile.makeDirectory(path)
        return try KeyFileLock.withLock(in: path) {
            for name in [Self.vaultKeysFile, Self.tavSigningKeyFile, Self.tavPublicKeyFile, Self.panFingerprintKeyFile]
            where FileManager.default.fileExists(atPath: file(name)) {
                throw ProvisioError(.keysAlreadyExist, "\(file(name)) already exists; refusing to overwrite key material.")
            }
            let fingerprintKey = PANFingerprinter.generateKey()
            let keys = ProvisioKeys(
                keyring: VaultKeyring(active: .generate()), tavSigningKey: P256.Signing.PrivateKey(),
                panFingerprinter: try PANFingerprinter(keyBytes: fingerprintKey))
            try SecretFile.create(
                file(Self.vaultKeysFile), contents: try Self.encode(keys.keyring), mode: 0o600, role: Self.vaultKeysRole)
            try SecretFile.create(
                file(Self.panFingerprintKeyFile), contents: Data(fingerprintKey.base64EncodedString().utf8), mode: 0o600,
                role: Self.panFingerprintKeyRole)
            try SecretFile.create(
                file(Self.tavSigningKeyFile), contents: Data(keys.tavSigningKey.pemRepresentation.utf8), mode: 0o600,
                role: Self.tavSigningKeyRole)
            try SecretFile.create(
                file(Self.tavPublicKeyFile), contents: Data(keys.tavSigningKey.publicKey.pemRepresentation.utf8),
                mode: 0o644, role: "TAV public key")
            return keys
        }
    }

    public func load() throws -> ProvisioKeys {
        let keyring = try loadKeyring()
        let pem = String(
            decoding: try SecretFile.readPrivate(file(Self.tavSigningKeyFile), role: Self.tavSigningKeyRole), as: UTF8.self)
        guard let signingKey = try? P256.Signing.PrivateKey(pemRepresentation: pem) else {
            throw ProvisioError(.keysInvalid, "\(file(Self.tavSigningKeyFile)) is not a P-256 private key in PEM.")
        }
        let fingerprintText = String(
            decoding: try SecretFile.readPrivate(file(Self.panFingerprintKeyFile), role: Self.panFingerprintKeyRole),
            as: UTF8.self)
        guard let fingerprintKey = Data(base64Encoded: fingerprintText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ProvisioError(.keysInvalid, "\(file(Self.panFingerprintKeyFile)) is not base64.")
        }
        return ProvisioKeys(
            keyring: keyring, tavSigningKey: signingKey, panFingerprinter: try PANFingerprinter(keyBytes: fingerprintKey))
    }

    /// Only the vault's keyring (what a running server reloads after a rotation).
    public func loadKeyring() throws -> VaultKeyring {
        try Self.decodeKeyring(
            try SecretFile.readPrivate(file(Self.vaultKeysFile), role: Self.vaultKeysRole), source: file(Self.vaultKeysFile))
    }

    /// Which version of `vault-keys.json` is on disk (nil when there is none): a server compares
    /// it on every check and reads the file only when it changed.
    public func vaultKeysStamp() -> KeyFileStamp? {
        SecretFile.stamp(file(Self.vaultKeysFile))
    }

    /// Adds a new active key-encryption key; the previous one becomes decrypt-only so existing
    /// records can be re-wrapped. Returns the updated keyring.
    @discardableResult
    public func rotateVaultKey() throws -> VaultKeyring {
        try KeyFileLock.withLock(in: path) {
            var keyring = try loadKeyring()
            try keyring.rotate(to: .generate())
            try writeKeyring(keyring)
            return keyring
        }
    }

    /// Forgets a decrypt-only key-encryption key's material (after every record was re-wrapped).
    @discardableResult
    public func retireVaultKey(id: String) throws -> VaultKeyring {
        try KeyFileLock.withLock(in: path) {
            var keyring = try loadKeyring()
            try keyring.retire(id: id)
            try writeKeyring(keyring)
            return keyring
        }
    }

    /// Retires `id` if `allowed` (given the keyring as it is on disk) does not throw. The key
    /// file stays locked from the read to the write, and `allowed` runs only for a key that can
    /// be retired, so what it checks (the database) is about a real decrypt-only key.
    @discardableResult
    public func retireVaultKey(id: String, whenAllowed allowed: (VaultKeyring) async throws -> Void) async throws
        -> VaultKeyring
    {
        try await KeyFileLock.withLockAsync(in: path) {
            let current = try loadKeyring()
            var retired = current
            try retired.retire(id: id)
            try await allowed(current)
            try writeKeyring(retired)
            return retired
        }
    }

    private func writeKeyring(_ keyring: VaultKeyring) throws {
        try SecretFile.replace(
            file(Self.vaultKeysFile), contents: try Self.encode(keyring), mode: 0o600, role: Self.vaultKeysRole)
    }

    static let vaultKeysRole = "vault key file"
    static let tavSigningKeyRole = "TAV signing key"
    static let panFingerprintKeyRole = "PAN fingerprint key"

    // MARK: - vault-keys.json

    private struct KeyringFile: Codable {
        struct Entry: Codable {
            var id: String
            var key: String
            var status: String
        }
        var activeKeyID: String
        var keys: [Entry]
        var retiredKeyIDs: [String]

        enum CodingKeys: String, CodingKey {
            case activeKeyID = "active_key_id"
            case keys
            case retiredKeyIDs = "retired_key_ids"
        }
    }

    static func encode(_ keyring: VaultKeyring) throws -> Data {
        let entries =
            [
                KeyringFile.Entry(
                    id: keyring.active.id, key: keyring.active.exportKeyBytes().base64EncodedString(), status: "active")
            ]
            + keyring.decryptOnly.map {
                KeyringFile.Entry(id: $0.id, key: $0.exportKeyBytes().base64EncodedString(), status: "decrypt_only")
            }
        let file = KeyringFile(activeKeyID: keyring.active.id, keys: entries, retiredKeyIDs: keyring.retiredIDs.sorted())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(file)
    }

    static func decodeKeyring(_ data: Data, source: String) throws -> VaultKeyring {
        guard let file = try? JSONDecoder().decode(KeyringFile.self, from: data) else {
            throw ProvisioError(.keysInvalid, "\(source) is not a Provisio vault key file.")
        }
        var active: KeyEncryptionKey?
        var others: [KeyEncryptionKey] = []
        for entry in file.keys {
            guard let bytes = Data(base64Encoded: entry.key) else {
                throw ProvisioError(.keysInvalid, "\(source): the key \(entry.id) is not base64.")
            }
            let key = try KeyEncryptionKey(id: entry.id, keyBytes: bytes)
            if entry.id == file.activeKeyID { active = key } else { others.append(key) }
        }
        guard let active else {
            throw ProvisioError(.keysInvalid, "\(source): the active key \(file.activeKeyID) is not in the file.")
        }
        return VaultKeyring(active: active, decryptOnly: others, retiredIDs: Set(file.retiredKeyIDs))
    }
}

extension KeyDirectory {
    /// Reads a secret file with the same checks as the key files (no link, a regular file owned
    /// by this user, no group or other bits, a directory only this user or root can write).
    /// `role` names the file in errors.
    public static func readSecret(_ path: String, role: String = "key file") throws -> Data {
        try SecretFile.readPrivate(path, role: role)
    }

    /// Writes a new secret file with mode 0600; never overwrites.
    public static func writeSecret(_ text: String, to path: String, role: String = "key file") throws {
        try SecretFile.create(path, contents: Data(text.utf8), mode: 0o600, role: role)
    }
}
