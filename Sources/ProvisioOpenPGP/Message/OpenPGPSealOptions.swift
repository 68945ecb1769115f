import Foundation

/// How `OpenPGPMessage.seal` builds a message. The defaults are Google's: SHA-384 signatures
/// and AES-256 encryption ("PGP library configuration" of its application-layer encryption
/// guide), and no compression (see `OpenPGPCompression`).
public struct OpenPGPSealOptions: Hashable, Sendable {
    public var hash: OpenPGPHashAlgorithm
    public var cipher: OpenPGPSymmetricAlgorithm
    public var compression: OpenPGPCompression
    /// The literal packet's file name (at most 255 bytes of UTF-8); empty by default.
    public var fileName: String

    public init(
        hash: OpenPGPHashAlgorithm = .sha384, cipher: OpenPGPSymmetricAlgorithm = .aes256,
        compression: OpenPGPCompression = .uncompressed, fileName: String = ""
    ) {
        self.hash = hash
        self.cipher = cipher
        self.compression = compression
        self.fileName = fileName
    }
}
