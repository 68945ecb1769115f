import Crypto

/// An issuer's secret key material: the PAN vault's keyring, the TAV signing key and the PAN
/// fingerprint key.
public struct ProvisioKeys: Sendable {
    public var keyring: VaultKeyring
    public let tavSigningKey: P256.Signing.PrivateKey
    public let panFingerprinter: PANFingerprinter

    public init(keyring: VaultKeyring, tavSigningKey: P256.Signing.PrivateKey, panFingerprinter: PANFingerprinter) {
        self.keyring = keyring
        self.tavSigningKey = tavSigningKey
        self.panFingerprinter = panFingerprinter
    }

    /// Keys the digest of idempotent requests (their bodies may hold a PAN).
    public var requestDigester: KeyedDigester { panFingerprinter.derivedDigester(purpose: "idempotency-request") }

    public static func generate() -> ProvisioKeys {
        ProvisioKeys(
            keyring: VaultKeyring(active: .generate()), tavSigningKey: P256.Signing.PrivateKey(),
            panFingerprinter: try! PANFingerprinter(keyBytes: PANFingerprinter.generateKey()))
    }
}
