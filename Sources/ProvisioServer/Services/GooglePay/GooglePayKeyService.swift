import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioOpenPGP

/// A tenant's keys for Google's opaque payment card (docs/android-wallets.md §2): its issuer
/// OpenPGP key, which signs every Google OPC, and Google's public keys, which every Google OPC is
/// encrypted to. The issuer key is made here, its secret half sealed by the vault like every
/// other secret; its public half is what the issuer registers with Google.
///
/// One issuer key is in force at a time. A rotation makes a new one, which signs from then on;
/// the previous one's secret is forgotten. Google verifies with the keys registered with it, so
/// the issuer sends the new public key to Google before the next push.
public struct GooglePayKeyService: Sendable {
    let store: any GooglePayKeyStore
    let vault: PANVault
    let clock: any TimeSource

    /// Google's key rules: RSA of 2048 bits or more, valid one year (two at most).
    static let signingKeyBits = 3072
    static let signingKeyValidity: TimeInterval = 365 * 24 * 3600

    public init(store: any GooglePayKeyStore, vault: PANVault, clock: any TimeSource) {
        self.store = store
        self.vault = vault
        self.clock = clock
    }

    /// The tenant's keys: its issuer key in force (made now if it has none) and Google's keys.
    public struct Settings: Sendable {
        public var signingKey: GooglePaySigningKeyRecord
        public var googleKeys: [OpenPGPPublicKey]
    }

    /// With `makingKey` false (a caller that may only read), a tenant without an issuer key is
    /// refused rather than given one: `insufficient_scope`.
    public func settings(tenantID: String, makingKey: Bool = true) async throws -> Settings {
        let key: GooglePaySigningKeyRecord
        if makingKey {
            key = try await signingKey(tenantID: tenantID)
        } else {
            guard let current = try await store.currentGooglePaySigningKey(tenantID: tenantID) else {
                throw ProvisioError(
                    .insufficientScope,
                    "The tenant has no issuer signing key yet, and a read_only API key does not make one; "
                        + "read with another key first.")
            }
            key = current
        }
        return Settings(signingKey: key, googleKeys: try await googleKeys(tenantID: tenantID))
    }

    /// Replaces Google's keys with `texts`, each checked as of now (`GoogleEncryptionKeyCheck`).
    public func setGoogleKeys(_ texts: [String], tenantID: String) async throws -> Settings {
        let now = clock.now()
        let keys = try GoogleEncryptionKeyCheck.read(texts, at: now)
        try await store.replaceGoogleEncryptionKeys(
            keys.map { GoogleEncryptionKeyRecord(fingerprint: $0.fingerprint, publicKeyArmored: $0.armored, createdAt: now) },
            tenantID: tenantID, at: now)
        return try await settings(tenantID: tenantID)
    }

    /// A new issuer key replaces the one in force (or is the first).
    public func rotateSigningKey(tenantID: String) async throws -> Settings {
        _ = try await store.addGooglePaySigningKey(try await makeSigningKey(tenantID: tenantID), replacing: true)
        return try await settings(tenantID: tenantID)
    }

    /// The Google OPC for `card`: its number and expiry with Google's session, signed with the
    /// tenant's issuer key and encrypted to every one of Google's keys that is valid now. The
    /// audit log records the keys used, never card data.
    public func googleOpaquePaymentCard(card: CardRecord, pan: PrimaryAccountNumber, serverSessionID: String) async throws
        -> String
    {
        let now = clock.now()
        let googleKeys = try await googleKeys(tenantID: card.tenantID).filter { key in
            key.expiration.map { $0 > now } ?? true
        }
        guard !googleKeys.isEmpty else {
            throw ProvisioError(
                .googlePayNotConfigured,
                "The tenant has no Google encryption key valid now; set Google's keys with PUT /v1/settings/google-pay.")
        }
        let record = try await signingKey(tenantID: card.tenantID)
        if let expiresAt = record.expiresAt, expiresAt <= now {
            throw ProvisioError(
                .googlePaySigningKeyExpired,
                "The tenant's issuer signing key has expired; rotate it and register the new one with Google.")
        }
        let signer = try unsealed(record)
        let opc: GoogleOpaquePaymentCard
        do {
            opc = try GoogleOpaquePaymentCard(
                serverSessionID: serverSessionID, accountNumber: pan.unmaskedDigits, expiryMonth: card.expiryMonth,
                expiryYear: card.expiryYear)
        } catch {
            throw ProvisioError(.invalidParameter, "credentials_request.server_session_id is not one Google's OPC can carry.")
        }
        let (sealed, recipients) = try seal(opc, signer: signer, googleKeys: googleKeys, at: now)
        try await store.appendAudit(
            AuditChange(
                "provisioning.google_pay.credentials", target: "card", card.id,
                reason: "signed by \(record.fingerprint); encrypted to \(recipients.map(\.fingerprint).joined(separator: ","))"),
            tenantID: card.tenantID, at: now)
        return sealed
    }

    /// Seals to every key; when one of them cannot take a message now (an encryption subkey
    /// expired before its primary key), to the others.
    private func seal(_ opc: GoogleOpaquePaymentCard, signer: OpenPGPSecretKey, googleKeys: [OpenPGPPublicKey], at now: Date)
        throws -> (String, [OpenPGPPublicKey])
    {
        do {
            return (try opc.seal(issuer: signer, googleKeys: googleKeys, at: now), googleKeys)
        } catch let error as OpenPGPError where error.code == .keyUnusable {
            let usable = googleKeys.filter { GoogleEncryptionKeyCheck.canEncrypt(to: $0, at: now) }
            guard !usable.isEmpty, usable.count < googleKeys.count else {
                throw ProvisioError(
                    .googlePayNotConfigured,
                    "None of the tenant's Google encryption keys can encrypt now; set Google's current keys.")
            }
            return try seal(opc, signer: signer, googleKeys: usable, at: now)
        } catch {
            throw ProvisioError(.internalError, "The server could not complete the request.")
        }
    }

    /// The tenant's issuer key in force; the first is made on first need.
    func signingKey(tenantID: String) async throws -> GooglePaySigningKeyRecord {
        if let current = try await store.currentGooglePaySigningKey(tenantID: tenantID) { return current }
        // Two first calls at once: the store keeps one, and both get it.
        return try await store.addGooglePaySigningKey(try await makeSigningKey(tenantID: tenantID), replacing: false)
    }

    /// A new RSA-3072 key (a signing primary key and an encryption subkey) whose user ID names
    /// the tenant, its secret sealed.
    private func makeSigningKey(tenantID: String) async throws -> GooglePaySigningKeyRecord {
        let now = clock.now()
        let key: OpenPGPSecretKey
        do {
            key = try await Self.offThePool {
                try OpenPGPSecretKey.generateRSA(
                    userID: "Provisio issuer key (tenant \(tenantID))", bits: Self.signingKeyBits, creationTime: now,
                    validity: Self.signingKeyValidity)
            }
        } catch {
            throw ProvisioError(.internalError, "The server could not complete the request.")
        }
        var secret = key.binary
        defer { secret.resetBytes(in: 0..<secret.count) }
        let sealed = try vault.seal(
            secret: secret, context: GooglePaySigningKeyRecord.vaultContext(tenantID: tenantID, fingerprint: key.fingerprint))
        return GooglePaySigningKeyRecord(
            tenantID: tenantID, fingerprint: key.fingerprint, publicKeyArmored: key.publicKey.armored,
            secretKeyVaultRecord: sealed.serialized, createdAt: now, expiresAt: key.publicKey.expiration)
    }

    /// Runs `work` on a Dispatch thread. Two RSA-3072 keys take a good part of a second to
    /// generate: on the cooperative pool, whose few threads (two on a two-core machine) serve
    /// every request, that would stall the server's other requests meanwhile.
    private static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result { try work() }) }
        }
    }

    private func unsealed(_ record: GooglePaySigningKeyRecord) throws -> OpenPGPSecretKey {
        guard let sealed = record.secretKeyVaultRecord else {
            throw ProvisioError(.internalError, "The server could not complete the request.")
        }
        var secret = try vault.openSecret(
            VaultRecord(serialized: sealed),
            context: GooglePaySigningKeyRecord.vaultContext(tenantID: record.tenantID, fingerprint: record.fingerprint))
        defer { secret.resetBytes(in: 0..<secret.count) }
        let key: OpenPGPSecretKey
        do {
            key = try OpenPGPSecretKey(secret)
        } catch {
            throw ProvisioError(.vaultDecryptionFailed, "A stored Google Pay signing key does not read.")
        }
        // The row names the key the sealed half is: a mismatch would sign under the wrong name.
        guard key.fingerprint == record.fingerprint else {
            throw ProvisioError(.vaultDecryptionFailed, "A stored Google Pay signing key does not match its fingerprint.")
        }
        return key
    }

    /// Google's keys as the tenant set them, read again from their armour.
    func googleKeys(tenantID: String) async throws -> [OpenPGPPublicKey] {
        try await store.googleEncryptionKeys(tenantID: tenantID).map { record in
            do {
                return try OpenPGPPublicKey(Data(record.publicKeyArmored.utf8))
            } catch {
                throw ProvisioError(.internalError, "A stored Google encryption key does not read.")
            }
        }
    }
}
