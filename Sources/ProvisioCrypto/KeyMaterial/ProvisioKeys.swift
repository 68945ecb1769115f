import Crypto

/// An issuer's secret key material: the PAN vault's keyring and the TAV signing key.
public struct ProvisioKeys: Sendable {
    public var keyring: VaultKeyring
    public let tavSigningKey: P256.Signing.PrivateKey

    public init(keyring: VaultKeyring, tavSigningKey: P256.Signing.PrivateKey) {
        self.keyring = keyring
        self.tavSigningKey = tavSigningKey
    }

    public static func generate() -> ProvisioKeys {
        ProvisioKeys(keyring: VaultKeyring(active: .generate()), tavSigningKey: P256.Signing.PrivateKey())
    }
}
