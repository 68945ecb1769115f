#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 (4 bytes) or IPv6 (16 bytes) address, the unit the outbound policy judges.
///
/// The text parsers are deliberately strict: resolvers and HTTP clients disagree about forms such
/// as `127.1`, `0177.0.0.1` or `2130706433`, and that disagreement is how SSRF filters are
/// bypassed. Only the one canonical IPv4 spelling and the RFC 4291 IPv6 forms are accepted, so a
/// string that parses here means the same address to every consumer. The C library's `inet_pton`
/// does the parsing; a short pre-check pins the few forms some `inet_pton`s accept.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public enum Family: Sendable, Hashable {
        case ipv4
        case ipv6
    }

    /// Network byte order; always 4 or 16 bytes.
    public let bytes: [UInt8]

    public var family: Family { bytes.count == 4 ? .ipv4 : .ipv6 }

    /// From raw bytes (e.g. `sin_addr` / `sin6_addr` from getaddrinfo); nil unless 4 or 16 bytes.
    public init?(bytes: some Collection<UInt8>) {
        let array = Array(bytes)
        guard array.count == 4 || array.count == 16 else { return nil }
        self.bytes = array
    }

    /// Only canonical dotted-quad: four decimal parts 0–255 without leading zeros. Refuses the
    /// inet_aton shorthands (`127.1`, `0x7f.0.0.1`, `0177.0.0.1`, `2130706433`) and a trailing dot.
    public init?(ipv4 text: some StringProtocol) {
        guard let parsed = Self.presentationToNetwork(Array(text.utf8)[...], ipv6: false) else { return nil }
        self.bytes = parsed
    }

    /// RFC 4291 text forms: eight groups of 1–4 hex digits, one `::`, an optional dotted-quad
    /// tail (`::ffff:127.0.0.1`), optionally inside `[` `]`. Zone ids (`fe80::1%eth0`) are refused:
    /// they pick an interface, which an outbound destination never needs.
    public init?(ipv6 text: some StringProtocol) {
        var utf8 = Array(text.utf8)[...]
        if utf8.first == UInt8(ascii: "[") {
            guard utf8.count >= 2, utf8.last == UInt8(ascii: "]") else { return nil }
            utf8 = utf8.dropFirst().dropLast()
        }
        guard let parsed = Self.presentationToNetwork(utf8, ipv6: true) else { return nil }
        self.bytes = parsed
    }

    /// Either strict form: a canonical dotted quad, or IPv6 text (brackets optional).
    public init?(_ text: some StringProtocol) {
        if let v4 = IPAddress(ipv4: text) {
            self = v4
        } else if let v6 = IPAddress(ipv6: text) {
            self = v6
        } else {
            return nil
        }
    }

    /// Canonical text: dotted quad for IPv4, RFC 5952 for IPv6 (lowercase, no leading zeros, the
    /// longest run of two or more zero groups as `::`), with IPv4-mapped addresses as
    /// `::ffff:a.b.c.d` as RFC 5952 section 5 recommends.
    /// Not `inet_ntop`: glibc's prints IPv4-compatible addresses (`::/96`) in mixed notation,
    /// which RFC 5952 asks for only for the well-known translation prefixes.
    public var description: String {
        if family == .ipv4 { return Self.dottedQuad(bytes[...]) }
        if isIPv4Mapped { return "::ffff:" + Self.dottedQuad(bytes[12...]) }
        let groups = (0..<8).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
        // Longest run of zero groups (first one on a tie); a single zero group is not compressed.
        var bestStart = -1
        var bestLength = 1
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            let start = index
            while index < 8 && groups[index] == 0 { index += 1 }
            if index - start > bestLength {
                bestStart = start
                bestLength = index - start
            }
        }
        let hex = groups.map { String($0, radix: 16) }
        guard bestStart >= 0 else { return hex.joined(separator: ":") }
        let head = hex[..<bestStart].joined(separator: ":")
        let tail = hex[(bestStart + bestLength)...].joined(separator: ":")
        return head + "::" + tail
    }

    /// The IPv4 address an IPv6 address carries and that decides where packets really go:
    /// IPv4-mapped `::ffff:0:0/96`, IPv4-compatible `::/96` (deprecated; not `::` or `::1`),
    /// NAT64 well-known prefix `64:ff9b::/96`, and 6to4 `2002::/16`. Nil for IPv4 and other IPv6.
    public var embeddedIPv4: IPAddress? {
        guard family == .ipv6 else { return nil }
        let b = bytes
        if isIPv4Mapped { return IPAddress(bytes: b[12..<16]) }
        if b[0..<12].allSatisfy({ $0 == 0 }) {
            // `::` and `::1` are the IPv6 unspecified and loopback addresses, not embeddings.
            if b[12..<15].allSatisfy({ $0 == 0 }) && b[15] <= 1 { return nil }
            return IPAddress(bytes: b[12..<16])
        }
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b && b[4..<12].allSatisfy({ $0 == 0 }) {
            return IPAddress(bytes: b[12..<16])
        }
        if b[0] == 0x20 && b[1] == 0x02 { return IPAddress(bytes: b[2..<6]) }
        return nil
    }

    /// `::ffff:a.b.c.d`: on a dual-stack socket this is the very IPv4 destination a.b.c.d.
    public var isIPv4Mapped: Bool {
        family == .ipv6 && bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
    }

    // MARK: - Parsing

    private static let dot = UInt8(ascii: ".")
    private static let colon = UInt8(ascii: ":")

    /// `inet_pton` over the text, after `hasStrictShape`; nil unless it returns 1.
    private static func presentationToNetwork(_ text: ArraySlice<UInt8>, ipv6: Bool) -> [UInt8]? {
        // The longest legal form is six 4-digit groups and a dotted quad: 45 characters.
        guard text.count <= 45, hasStrictShape(text, ipv6: ipv6) else { return nil }
        let cString = text.map { CChar(bitPattern: $0) } + [0]
        var address = [UInt8](repeating: 0, count: ipv6 ? 16 : 4)
        let result = address.withUnsafeMutableBytes { buffer in
            inet_pton(ipv6 ? AF_INET6 : AF_INET, cString, buffer.baseAddress)
        }
        return result == 1 ? address : nil
    }

    /// Refuses what `inet_pton` would accept and the strict forms do not. With every C library, a
    /// NUL byte: it ends the C string, so only the text before it would be judged. With older
    /// BIND-derived ones (the BSDs' lineage; glibc refuses these itself): a dotted-quad part with a
    /// leading zero (octal to inet_aton), a hex group of five or more digits (`00001::`), and a
    /// `::` that stands for no group at all (`1:2:3:4::5:6:7:8`).
    private static func hasStrictShape(_ text: ArraySlice<UInt8>, ipv6: Bool) -> Bool {
        guard !text.contains(0) else { return false }
        let pieces = ipv6 ? text.split(separator: colon, omittingEmptySubsequences: false) : [text]
        var groups = 0
        for (position, piece) in pieces.enumerated() {
            if position == pieces.count - 1 && piece.contains(dot) {
                let parts = piece.split(separator: dot, omittingEmptySubsequences: false)
                guard !parts.contains(where: { $0.count > 1 && $0.first == UInt8(ascii: "0") }) else { return false }
                groups += 2
            } else if ipv6 {
                guard piece.count <= 4 else { return false }
                groups += piece.isEmpty ? 0 : 1
            }
        }
        let compresses = zip(text, text.dropFirst()).contains { $0 == colon && $1 == colon }
        return !(compresses && groups >= 8)
    }

    private static func dottedQuad(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map { String($0) }.joined(separator: ".")
    }
}
