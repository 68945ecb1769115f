import Crypto
import ProvisioCore

/// The audit log's hash chain: a line's hash is SHA-256 over the previous line's hash, the
/// line's place and every field of the line, so changing, removing or reordering a line breaks
/// every hash after it.
///
/// SHA-256, not an HMAC under a server key: anyone with read access can verify the chain (an
/// auditor needs no secret), and the servers that would hold such a key also hold the database
/// credentials. The cost is said in SECURITY.md: whoever can write the table can rewrite the
/// chain from a changed line to the end, which only a head recorded elsewhere reveals.
enum AuditChain {
    /// The previous hash of the first line when nothing came before it.
    static let zeroHash = String(repeating: "0", count: 64)

    /// Names the encoding, so a later version of it can never collide with this one.
    private static let domain = "provisio.audit-chain.v1"

    /// The hash of `line` at `sequence` after `previous`, lowercase hex. Lines from before the
    /// chain are folded in at sequence 0 (`AuditChainVerifier`).
    static func hash(_ line: AuditChainLine, sequence: Int64, previous: String) -> String {
        BinaryText.lowercaseHex(SHA256.hash(data: encoding(line, sequence: sequence, previous: previous)))
    }

    /// Every field length-prefixed (or marked absent) in a fixed order, so two different lines
    /// never encode to the same bytes: `a|bc` and `ab|c` differ, and so do nil and "".
    static func encoding(_ line: AuditChainLine, sequence: Int64, previous: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        let texts: [String?] = [domain, previous]
        for text in texts { append(text, to: &bytes) }
        append(sequence, to: &bytes)
        let fields: [String?] = [
            line.id, line.tenantID, line.actorType, line.actorID, line.action, line.targetType, line.targetID,
            line.reason, line.requestID,
        ]
        for field in fields { append(field, to: &bytes) }
        append(line.createdAtMilliseconds, to: &bytes)
        return bytes
    }

    private static func append(_ text: String?, to bytes: inout [UInt8]) {
        guard let text else {
            bytes.append(0)
            return
        }
        let utf8 = Array(text.utf8)
        bytes.append(1)
        append(UInt32(utf8.count), to: &bytes)
        bytes += utf8
    }

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }
}
