import Crypto
import Foundation
import ProvisioCore

/// Envelope encryption for stored PANs.
///
/// Each record gets a fresh 256-bit data key; the PAN is sealed under it with AES-256-GCM,
/// bound to a caller-chosen context (for example tenant and card id, so a ciphertext cannot be
/// moved to another row), and the data key is sealed under the active key-encryption key,
/// bound to that key's id. Rotation re-wraps only the data key: the PAN is never decrypted.
///
/// Copies of a vault share one `LiveKeyring`: a server swaps in a rotated keyring once and
/// every service holding the vault uses it from the next operation on.
public struct PANVault: Sendable {
    public let liveKeyring: LiveKeyring

    /// The keyring in use now (one snapshot; each operation below reads it once).
    public var keyring: VaultKeyring { liveKeyring.current }

    public init(keyring: VaultKeyring) {
        self.init(liveKeyring: LiveKeyring(keyring))
    }

    public init(liveKeyring: LiveKeyring) {
        self.liveKeyring = liveKeyring
    }

    public func seal(_ pan: PrimaryAccountNumber, context: String) throws -> VaultRecord {
        try seal(secret: Data(pan.unmaskedDigits.utf8), context: context)
    }

    /// Seals any other secret the server must be able to read back (webhook signing secrets),
    /// with the same envelope and rotation as PANs.
    public func seal(secret: Data, context: String) throws -> VaultRecord {
        let dataKey = SymmetricKey(size: .bits256)
        let ciphertext = try AES.GCM.seal(secret, using: dataKey, authenticating: Data(context.utf8))
        let kek = keyring.active
        return VaultRecord(
            keyID: kek.id,
            wrappedDataKey: try wrap(dataKey, under: kek),
            ciphertext: ciphertext.combined!
        )
    }

    public func open(_ record: VaultRecord, context: String) throws -> PrimaryAccountNumber {
        try PrimaryAccountNumber(String(decoding: try openSecret(record, context: context), as: UTF8.self))
    }

    public func openSecret(_ record: VaultRecord, context: String) throws -> Data {
        let dataKey = try unwrapDataKey(of: record, in: keyring)
        do {
            return try AES.GCM.open(
                AES.GCM.SealedBox(combined: record.ciphertext), using: dataKey, authenticating: Data(context.utf8))
        } catch {
            throw ProvisioError(
                .vaultDecryptionFailed, "The stored secret does not decrypt (tampered record or wrong context).")
        }
    }

    /// Re-wraps the record's data key under the active key-encryption key. The PAN ciphertext
    /// is carried over byte for byte. Records already under the active key come back unchanged.
    public func rewrap(_ record: VaultRecord) throws -> VaultRecord {
        let keyring = self.keyring
        guard record.keyID != keyring.active.id else { return record }
        let dataKey = try unwrapDataKey(of: record, in: keyring)
        return VaultRecord(
            keyID: keyring.active.id,
            wrappedDataKey: try wrap(dataKey, under: keyring.active),
            ciphertext: record.ciphertext
        )
    }

    private func wrap(_ dataKey: SymmetricKey, under kek: KeyEncryptionKey) throws -> Data {
        let sealed = try dataKey.withUnsafeBytes { bytes in
            try AES.GCM.seal(Data(bytes), using: kek.key, authenticating: Self.wrapContext(kek.id))
        }
        return sealed.combined!
    }

    private func unwrapDataKey(of record: VaultRecord, in keyring: VaultKeyring) throws -> SymmetricKey {
        let kek = try keyring.key(withID: record.keyID)
        do {
            let bytes = try AES.GCM.open(
                AES.GCM.SealedBox(combined: record.wrappedDataKey), using: kek.key, authenticating: Self.wrapContext(kek.id))
            guard bytes.count == 32 else { throw CryptoKitError.incorrectKeySize }
            return SymmetricKey(data: bytes)
        } catch {
            throw ProvisioError(.vaultDecryptionFailed, "The data key does not unwrap under key-encryption key \(kek.id).")
        }
    }

    private static func wrapContext(_ keyID: String) -> Data { Data("provisio-vault-dek|\(keyID)".utf8) }
}
