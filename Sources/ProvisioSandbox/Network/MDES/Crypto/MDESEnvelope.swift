/// One `encryptedPayload` as the MDES document lays it out: every binary field lower-case hex.
/// The sandbox's own value, converted to the generated type at the edge.
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
