import Foundation

/// `fundingAccountInfo.encryptedPayload` of MDES's Issuer Outbound (pre-digitization) API
/// 2.0.33, as the strings MDES sends: every value hex (case-insensitive) except the two names.
///
/// From the document: a one-time AES key (128 bits, 256 optional) is wrapped with the issuer's RSA
/// key, chosen by `publicKeyFingerprint`, with OAEP (`oaepHashingAlgorithm` "SHA256" or "SHA512")
/// or PKCS#1 v1.5 when that field is absent; the data is AES-GCM (`iv`, `tag`, `aad`) or AES-CBC
/// with PKCS#7 padding (`algorithmCipherMode` "GCM" or "CBC"); an absent `iv` means all zeros.
/// Provisio's reading where the document is silent is on `MDESPayloadDecrypter`.
public struct MDESEncryptedPayload: Codable, Hashable, Sendable {
    public var encryptedData: String
    public var encryptedKey: String
    public var publicKeyFingerprint: String
    public var oaepHashingAlgorithm: String?
    public var iv: String?
    public var algorithmCipherMode: String?
    public var tag: String?
    public var aad: String?

    public init(
        encryptedData: String, encryptedKey: String, publicKeyFingerprint: String,
        oaepHashingAlgorithm: String? = nil, iv: String? = nil, algorithmCipherMode: String? = nil,
        tag: String? = nil, aad: String? = nil
    ) {
        self.encryptedData = encryptedData
        self.encryptedKey = encryptedKey
        self.publicKeyFingerprint = publicKeyFingerprint
        self.oaepHashingAlgorithm = oaepHashingAlgorithm
        self.iv = iv
        self.algorithmCipherMode = algorithmCipherMode
        self.tag = tag
        self.aad = aad
    }
}
