import Foundation

/// One of Google's public encryption keys as a tenant set it (`PUT /v1/settings/google-pay`):
/// public, so kept in clear, re-armoured from what was read.
public struct GoogleEncryptionKeyRecord: Sendable, Equatable {
    /// The primary key's v4 fingerprint, upper-case hex.
    public var fingerprint: String
    public var publicKeyArmored: String
    public var createdAt: Date

    public init(fingerprint: String, publicKeyArmored: String, createdAt: Date) {
        self.fingerprint = fingerprint
        self.publicKeyArmored = publicKeyArmored
        self.createdAt = createdAt
    }
}
