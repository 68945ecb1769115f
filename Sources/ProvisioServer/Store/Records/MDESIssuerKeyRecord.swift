import Foundation

/// One of a tenant's RSA keys for MDES's encrypted payloads (`provisio tenants mdes-key`). The
/// private half is only ever stored sealed; the public half is not secret and is kept so that
/// the key can be printed again without opening the vault.
public struct MDESIssuerKeyRecord: Sendable, Equatable {
    public var tenantID: String
    /// `MDESIssuerKey.publicKeyFingerprint`: SHA-256 of the public key's DER, lowercase hex.
    public var fingerprint: String
    public var keySize: Int
    /// "PUBLIC KEY" PEM, what the issuer registers with Mastercard.
    public var publicKeyPEM: String
    /// The PKCS#8 PEM as a `VaultRecord.serialized`, sealed with `vaultContext`; nil once retired.
    public var privateKeyVaultRecord: String?
    public var createdAt: Date
    public var retiredAt: Date?

    public init(
        tenantID: String, fingerprint: String, keySize: Int, publicKeyPEM: String, privateKeyVaultRecord: String?,
        createdAt: Date, retiredAt: Date? = nil
    ) {
        self.tenantID = tenantID
        self.fingerprint = fingerprint
        self.keySize = keySize
        self.publicKeyPEM = publicKeyPEM
        self.privateKeyVaultRecord = privateKeyVaultRecord
        self.createdAt = createdAt
        self.retiredAt = retiredAt
    }

    /// Binds the sealed key to its tenant and fingerprint: a sealed key copied to another row
    /// does not open.
    public static func vaultContext(tenantID: String, fingerprint: String) -> String {
        "tenant/\(tenantID)/mdes-issuer-key/\(fingerprint)"
    }
}
