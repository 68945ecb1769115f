import HTTPTypes
import NIOCore
import ProvisioOutbound

/// Who a sign-in attempt counts against: the connection's peer, or behind a declared TLS proxy
/// the address that proxy appended to `X-Forwarded-For` (the last one; what comes before it is
/// whatever the client wrote). IPv6 counts by /64, the block one subscriber gets, so a client
/// cannot take a fresh address per attempt.
enum SignInClientAddress {
    static func key(peer: SocketAddress?, headers: HTTPFields, behindProxy: Bool) -> String {
        if behindProxy, let forwarded = headers[values: HTTPField.Name("X-Forwarded-For")!].last,
            let last = forwarded.split(separator: ",").last
        {
            return key(text: last.trimmingCharacters(in: .whitespaces))
        }
        return key(text: peer?.ipAddress ?? "")
    }

    static func key(text: String) -> String {
        guard let address = IPAddress(text) else { return text.isEmpty ? "unknown" : "unparsed:" + text.prefix(64) }
        let bytes = address.bytes
        if bytes.count == 16, bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return IPAddress(bytes: bytes.suffix(4))?.description ?? address.description
        }
        guard bytes.count == 16 else { return address.description }
        return (IPAddress(bytes: bytes.prefix(8) + [UInt8](repeating: 0, count: 8))?.description ?? address.description) + "/64"
    }
}
