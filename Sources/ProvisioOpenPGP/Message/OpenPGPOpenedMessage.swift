import Foundation

/// What `OpenPGPMessage.open` returns: the literal data, decrypted and with its signature
/// verified, and who signed it when.
public struct OpenPGPOpenedMessage: Sendable, CustomStringConvertible {
    /// The signed content (for Google's opaque payment card, its JSON). Holds a PAN: never log it.
    public let data: Data
    /// The fingerprint of the key (primary or subkey) whose signature verified.
    public let signingKeyFingerprint: String
    /// The fingerprint of that key's primary key: which of the given signers it was.
    public let signerFingerprint: String
    /// The signature's creation time.
    public let signatureTime: Date
    /// The literal packet's file name.
    public let fileName: String

    public var description: String {
        "OpenPGPOpenedMessage(\(data.count) bytes signed by \(signerFingerprint))"
    }
}
