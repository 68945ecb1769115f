import Foundation
import ProvisioCore
import ProvisioCrypto

/// Persistence for the tenants' MDES issuer keys. A key is live until it is retired; every live
/// key decrypts, so that payloads MDES wrapped for the previous key still open during a rotation.
public protocol MDESKeyStore: Sendable {
    /// Every key of the tenant, retired ones included, newest first.
    func mdesIssuerKeys(tenantID: String) async throws -> [MDESIssuerKeyRecord]
    /// Adds `key` and returns it. With `onlyIfNoneLive`, adds it only when the tenant has no
    /// live key, and otherwise returns the newest live one (two concurrent first calls make one
    /// key, not two).
    func addMDESIssuerKey(_ key: MDESIssuerKeyRecord, onlyIfNoneLive: Bool) async throws -> MDESIssuerKeyRecord
    /// Retires a live key and forgets its sealed private half. Refuses a fingerprint that names
    /// none of the tenant's live keys (`mdes_key_not_found`) and the tenant's last live key
    /// (`mdes_key_last_live`): MDES would then wrap for a key nothing can open.
    func retireMDESIssuerKey(tenantID: String, fingerprint: String, at time: Date) async throws -> MDESIssuerKeyRecord
}

extension MDESKeyStore {
    /// The tenant's live keys, newest first.
    public func liveMDESIssuerKeys(tenantID: String) async throws -> [MDESIssuerKeyRecord] {
        try await mdesIssuerKeys(tenantID: tenantID).filter { $0.retiredAt == nil }
    }

    /// The tenant's live keys unsealed, newest first: what `MDESPayloadDecrypter` is made with.
    /// Empty when the tenant has none.
    public func liveMDESIssuerKeys(tenantID: String, unsealedWith vault: PANVault) async throws -> [MDESIssuerKey] {
        try await liveMDESIssuerKeys(tenantID: tenantID).map { record in
            guard let sealed = record.privateKeyVaultRecord else {
                throw ProvisioError(.internalError, "A live MDES issuer key has no sealed private key.")
            }
            var pem = try vault.openSecret(
                VaultRecord(serialized: sealed),
                context: MDESIssuerKeyRecord.vaultContext(tenantID: tenantID, fingerprint: record.fingerprint))
            defer { pem.resetBytes(in: 0..<pem.count) }
            let key = try MDESIssuerKey(privateKeyPEM: String(decoding: pem, as: UTF8.self))
            // The row names the key the sealed half is: a mismatch would decrypt under the wrong name.
            guard key.publicKeyFingerprint == record.fingerprint else {
                throw ProvisioError(.vaultDecryptionFailed, "A stored MDES issuer key does not match its fingerprint.")
            }
            return key
        }
    }
}
