/// A version 3 one-pass signature packet (RFC 9580 §5.4): announces, before the data, the
/// signature that follows it, so a reader can hash while it reads.
struct OnePassSignaturePacket: Sendable {
    let type: UInt8
    let hashAlgorithm: UInt8
    let publicKeyAlgorithm: UInt8
    let keyID: [UInt8]
    /// 1 when no other one-pass signature follows this one (the last, innermost one).
    let isLast: Bool

    init(type: UInt8, hashAlgorithm: UInt8, publicKeyAlgorithm: UInt8, keyID: [UInt8], isLast: Bool) {
        self.type = type
        self.hashAlgorithm = hashAlgorithm
        self.publicKeyAlgorithm = publicKeyAlgorithm
        self.keyID = keyID
        self.isLast = isLast
    }

    static func read(_ body: [UInt8]) throws(OpenPGPError) -> OnePassSignaturePacket {
        var reader = ByteReader(body)
        let version = try reader.byte()
        guard version == 3 else {
            throw OpenPGPError(.unsupportedPacket, "a version \(version) one-pass signature (this module reads version 3)")
        }
        let packet = OnePassSignaturePacket(
            type: try reader.byte(), hashAlgorithm: try reader.byte(), publicKeyAlgorithm: try reader.byte(),
            keyID: Array(try reader.take(8)), isLast: try reader.byte() != 0)
        guard reader.isAtEnd else { throw OpenPGPError(.malformedPacket, "bytes after a one-pass signature") }
        return packet
    }

    var body: [UInt8] { [3, type, hashAlgorithm, publicKeyAlgorithm] + keyID + [isLast ? 1 : 0] }
}
