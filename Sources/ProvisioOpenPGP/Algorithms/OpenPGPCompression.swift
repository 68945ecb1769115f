/// Compression of the signed literal (RFC 9580 §9.4). BZip2 is not read.
///
/// Sealing defaults to none: the opaque payment card holds a PAN beside a session id chosen
/// elsewhere, and compressing secret and chosen text together makes the ciphertext's length
/// depend on the secret. Opening reads all three, since GnuPG compresses by default.
public enum OpenPGPCompression: UInt8, Hashable, Sendable, CaseIterable {
    case uncompressed = 0
    /// Raw DEFLATE (RFC 1951).
    case zip = 1
    /// DEFLATE in a zlib stream (RFC 1950).
    case zlib = 2
}
