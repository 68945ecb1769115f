import Foundation
import ProvisioCore
import ProvisioCrypto

/// A tenant's RSA keys for MDES's encrypted payloads (`provisio tenants mdes-key`): made here,
/// the private half sealed by the vault like every other secret, the public half and its
/// fingerprint handed to the issuer to register with Mastercard.
///
/// One key is the rule. A rotation adds a second, and both decrypt (the payload names its key by
/// fingerprint) until the issuer, once Mastercard wraps for the new key, retires the old one.
public struct MDESKeyService: Sendable {
    let store: any MDESKeyStore
    let vault: PANVault
    let clock: any TimeSource
    /// Where the listener's unsealed keys are kept; every change made here drops the tenant's.
    let cache: MDESKeyCache

    public init(store: any MDESKeyStore, vault: PANVault, clock: any TimeSource, cache: MDESKeyCache = .shared) {
        self.store = store
        self.vault = vault
        self.clock = clock
        self.cache = cache
    }

    /// The key to register: its public half, and whether this call made it.
    public struct PublicKey: Sendable, Equatable {
        public var pem: String
        public var fingerprint: String
        public var keySize: Int
        public var created: Bool
    }

    /// Without `rotate`, the tenant's newest live key if it has one (nothing is made; asking for
    /// another size than that key's is refused, `mdes_key_exists`), else a new key. With
    /// `rotate`, always a new key, beside the live ones. `keySize` nil is
    /// `MDESIssuerKey.defaultGeneratedKeySize`.
    public func key(tenantID: String, keySize: Int?, rotate: Bool) async throws -> PublicKey {
        let size = keySize ?? MDESIssuerKey.defaultGeneratedKeySize
        try MDESIssuerKey.checkGeneratedKeySize(size)
        if !rotate, let live = try await store.liveMDESIssuerKeys(tenantID: tenantID).first {
            return try existing(live, asked: keySize)
        }
        let key = try MDESIssuerKey.generate(keySizeInBits: size)
        var pem = Data(try key.privateKeyPEM.utf8)
        defer { pem.resetBytes(in: 0..<pem.count) }
        let sealed = try vault.seal(
            secret: pem, context: MDESIssuerKeyRecord.vaultContext(tenantID: tenantID, fingerprint: key.publicKeyFingerprint))
        let record = MDESIssuerKeyRecord(
            tenantID: tenantID, fingerprint: key.publicKeyFingerprint, keySize: key.keySizeInBits,
            publicKeyPEM: try key.publicKeyPEM, privateKeyVaultRecord: sealed.serialized, createdAt: clock.now())
        let inForce = try await store.addMDESIssuerKey(record, onlyIfNoneLive: !rotate)
        cache.invalidate(tenantID: tenantID)
        // Another call made the tenant's first key in the meantime: that one stands.
        guard inForce.fingerprint == record.fingerprint else { return try existing(inForce, asked: keySize) }
        return PublicKey(pem: record.publicKeyPEM, fingerprint: record.fingerprint, keySize: record.keySize, created: true)
    }

    /// Retires one of the tenant's live keys (fingerprint in either case); its private half is
    /// forgotten, so payloads wrapped for it no longer open.
    public func retire(tenantID: String, fingerprint: String) async throws -> MDESIssuerKeyRecord {
        let retired = try await store.retireMDESIssuerKey(
            tenantID: tenantID, fingerprint: fingerprint.lowercased(), at: clock.now())
        cache.invalidate(tenantID: tenantID)
        return retired
    }

    /// The tenant's live keys, unsealed, read from the store now.
    public func liveKeys(tenantID: String) async throws -> [MDESIssuerKey] {
        try await store.liveMDESIssuerKeys(tenantID: tenantID, unsealedWith: vault)
    }

    /// The tenant's live keys for `MDESPayloadDecrypter` on the listener: from the cache while
    /// fresh (`MDESKeyCache`), else `liveKeys`.
    public func decryptionKeys(tenantID: String) async throws -> [MDESIssuerKey] {
        try await cache.keys(tenantID: tenantID, now: clock.now()) { try await liveKeys(tenantID: tenantID) }
    }

    private func existing(_ live: MDESIssuerKeyRecord, asked keySize: Int?) throws -> PublicKey {
        if let keySize, keySize != live.keySize {
            throw ProvisioError(
                .mdesKeyExists,
                "The tenant's MDES issuer key has \(live.keySize) bits; add --rotate to make a \(keySize)-bit key beside it.")
        }
        return PublicKey(pem: live.publicKeyPEM, fingerprint: live.fingerprint, keySize: live.keySize, created: false)
    }
}
