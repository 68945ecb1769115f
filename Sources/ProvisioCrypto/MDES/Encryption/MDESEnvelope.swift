/// One MDES digital envelope as the documents lay it out (`encryptedPayload`,
/// `EncryptedAccountInformation`): every binary field lower-case hex. Each sender converts it to
/// its generated type at the edge.
public struct MDESEnvelope: Sendable, Hashable {
    public var encryptedData: String
    public var encryptedKey: String
    public var publicKeyFingerprint: String
    /// `SHA256` or `SHA512`; nil for PKCS#1 v1.5.
    public var oaepHashingAlgorithm: String?
    public var iv: String
    /// `GCM` or `CBC`.
    public var algorithmCipherMode: String
    /// GCM only.
    public var tag: String?
    /// GCM only.
    public var aad: String?
}
