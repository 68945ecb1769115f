import Foundation

/// One of a tenant's issuer OpenPGP keys, which sign Google's opaque payment card. The secret
/// half is only ever stored sealed; the public half is not secret and is kept armoured, so it
/// can be shown again without opening the vault.
public struct GooglePaySigningKeyRecord: Sendable, Equatable {
    public var tenantID: String
    /// The primary key's v4 fingerprint, upper-case hex (`OpenPGPPublicKey.fingerprint`).
    public var fingerprint: String
    /// The transferable public key in ASCII armour: what the issuer registers with Google.
    public var publicKeyArmored: String
    /// The binary transferable secret key as a `VaultRecord.serialized`, sealed with
    /// `vaultContext`; nil once a rotation replaced the key.
    public var secretKeyVaultRecord: String?
    public var createdAt: Date
    /// When the key stops signing; nil if never.
    public var expiresAt: Date?
    /// When a rotation replaced it; nil while it is the one in force.
    public var replacedAt: Date?

    public init(
        tenantID: String, fingerprint: String, publicKeyArmored: String, secretKeyVaultRecord: String?, createdAt: Date,
        expiresAt: Date?, replacedAt: Date? = nil
    ) {
        self.tenantID = tenantID
        self.fingerprint = fingerprint
        self.publicKeyArmored = publicKeyArmored
        self.secretKeyVaultRecord = secretKeyVaultRecord
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.replacedAt = replacedAt
    }

    /// Binds the sealed key to its tenant and fingerprint: a sealed key copied to another row
    /// does not open.
    public static func vaultContext(tenantID: String, fingerprint: String) -> String {
        "tenant/\(tenantID)/google-pay-signing-key/\(fingerprint)"
    }
}
