import Foundation
import ProvisioCore

/// Where Provisio may send tenant-configured HTTP calls (webhooks, network connectors): the
/// server-side-request-forgery guard.
///
/// Two moments: `checkURL(_:)` when a tenant configures a URL (syntax, scheme, IP literals), and
/// `check(_:)` on every address the host resolves to when connecting, so DNS cannot point a
/// public-looking name at an internal address. Errors name the address class, never the URL, host
/// or address: the tenant learns why, not what lives on the server's network.
public struct OutboundPolicy: Sendable, Hashable {
    /// Permit loopback destinations (a developer's local webhook receiver).
    public var allowLoopback: Bool
    /// Internal unicast addresses inside these blocks are permitted (an operator's own services).
    /// An IPv4 block also admits the IPv4-mapped IPv6 form of its addresses.
    public var allowedRanges: [IPAddressRange]
    /// Refuse plain http.
    public var requireHTTPS: Bool

    public init(allowLoopback: Bool = false, allowedRanges: [IPAddressRange] = [], requireHTTPS: Bool = true) {
        self.allowLoopback = allowLoopback
        self.allowedRanges = allowedRanges
        self.requireHTTPS = requireHTTPS
    }

    /// Public addresses only, https only.
    public static let production = OutboundPolicy(allowLoopback: false, allowedRanges: [], requireHTTPS: true)
    /// Also loopback and plain http; every other internal address is still refused.
    public static let development = OutboundPolicy(allowLoopback: true, allowedRanges: [], requireHTTPS: false)

    /// The longest URL accepted; longer ones are almost certainly not a real endpoint.
    public static let maximumURLLength = 2048

    // MARK: - Addresses

    /// Whether a connection to `address` is permitted.
    public func allows(_ address: IPAddress) -> Bool {
        refusedClass(of: address) == nil
    }

    /// Throws `outbound_address_refused` unless `address` is public, loopback under
    /// `allowLoopback`, or inside `allowedRanges`.
    public func check(_ address: IPAddress) throws(ProvisioError) {
        if let refused = refusedClass(of: address) {
            throw ProvisioError(
                .outboundAddressRefused,
                "The destination resolves to \(refused.nounPhrase), which outbound calls may not reach.")
        }
    }

    private func refusedClass(of address: IPAddress) -> AddressClass? {
        let addressClass = address.addressClass
        switch addressClass {
        case .publicUnicast: return nil
        case .loopback where allowLoopback: return nil
        // Not unicast destinations at all (and 0.0.0.0 reaches the local host on Linux), so no
        // allow-list entry, not even 0.0.0.0/0, admits them.
        case .unspecified, .multicast, .broadcast: return addressClass
        default:
            let unmapped = address.isIPv4Mapped ? address.embeddedIPv4 : nil
            let listed = allowedRanges.contains { range in
                range.contains(address) || unmapped.map { range.contains($0) } == true
            }
            return listed ? nil : addressClass
        }
    }

    // MARK: - URLs

    /// Validates a destination URL at configuration time and returns its normalized form.
    ///
    /// Requires http(s) (https under `requireHTTPS`), a host, no user or password, no fragment,
    /// at most 2048 characters, RFC 3986 characters only (so an internationalized name must be
    /// given in punycode), a port of 1–65535 if given. The host must be a canonical dotted quad,
    /// a bracketed IPv6 literal without zone, or a letters-digits-hyphen DNS name; a name whose
    /// last label is numeric (`2130706433`, `127.1`, `0177.0.0.1`, `0x7f.0.0.1`) is refused,
    /// because resolvers would read it as an address. IP literals are checked with `check(_:)`
    /// at once, and `localhost` / `*.localhost` count as loopback (RFC 6761).
    public func checkURL(_ text: String) throws(ProvisioError) -> OutboundURL {
        let utf8 = Array(text.utf8)
        guard utf8.count <= Self.maximumURLLength else {
            throw Self.invalid("The URL is longer than \(Self.maximumURLLength) characters.")
        }
        guard Self.hasOnlyURLCharacters(utf8) else {
            throw Self.invalid(
                "The URL contains characters a URL may not (spaces, non-ASCII or malformed percent escapes); "
                    + "give internationalized host names in punycode (xn--).")
        }
        guard let components = URLComponents(string: text), let rawScheme = components.scheme else {
            throw Self.invalid("The URL is not an absolute http or https URL.")
        }
        let scheme = rawScheme.lowercased()
        guard scheme == "http" || scheme == "https" else { throw Self.invalid("The URL's scheme must be http or https.") }
        guard !(requireHTTPS && scheme == "http") else {
            throw ProvisioError(.outboundHTTPSRequired, "The URL must use https.")
        }
        guard components.user == nil, components.password == nil else {
            throw ProvisioError(.outboundURLHasCredentials, "The URL must not carry a user name or password.")
        }
        guard components.fragment == nil else { throw Self.invalid("The URL must not have a fragment (#).") }

        // Split the authority ourselves and insist Foundation agrees: a parser differential is
        // exactly what a crafted URL exploits, and Foundation silently drops an overflowing port.
        let afterScheme = utf8.dropFirst(rawScheme.utf8.count)
        guard afterScheme.starts(with: Array("://".utf8)) else { throw Self.invalid("The URL has no host.") }
        let authority = afterScheme.dropFirst(3).prefix { !"/?#".utf8.contains($0) }
        guard !authority.contains(UInt8(ascii: "@")) else {
            throw ProvisioError(.outboundURLHasCredentials, "The URL must not carry a user name or password.")
        }
        let (hostBytes, portBytes) = try Self.splitAuthority(authority)
        guard !hostBytes.isEmpty else { throw Self.invalid("The URL has no host.") }
        let rawHost = String(decoding: hostBytes, as: UTF8.self)
        // `encodedHost` is the host as written (`host` decodes punycode); some Foundation
        // versions report an IPv6 host without its brackets.
        guard let foundationHost = components.encodedHost,
            foundationHost == rawHost || "[\(foundationHost)]" == rawHost
        else { throw Self.invalid("The URL's host could not be read.") }

        let defaultPort = scheme == "https" ? 443 : 80
        var port = defaultPort
        if let portBytes {
            guard (1...5).contains(portBytes.count), portBytes.allSatisfy({ (48...57).contains($0) }),
                let value = Int(String(decoding: portBytes, as: UTF8.self)), (1...65535).contains(value),
                components.port == value
            else { throw Self.invalid("The URL's port must be a number from 1 to 65535.") }
            port = value
        }

        let host: String
        let hostInURL: String
        let address: IPAddress?
        if rawHost.hasPrefix("[") {
            // `%` would start a zone id (`%25eth0`), which names an interface, not a destination.
            guard !rawHost.contains("%"), let literal = IPAddress(ipv6: rawHost) else {
                throw Self.invalid("The URL's IPv6 address is not valid (zone ids are not allowed).")
            }
            try checkLiteral(literal)
            address = literal
            host = literal.description
            hostInURL = "[\(literal.description)]"
        } else if let literal = IPAddress(ipv4: rawHost) {
            try checkLiteral(literal)
            address = literal
            host = literal.description
            hostInURL = host
        } else {
            host = rawHost.lowercased()
            try checkHostName(host)
            address = nil
            hostInURL = host
        }

        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let query = components.percentEncodedQuery.map { "?" + $0 } ?? ""
        let portInURL = port == defaultPort ? "" : ":\(port)"
        return OutboundURL(
            scheme: scheme, host: host, port: port, address: address,
            url: "\(scheme)://\(hostInURL)\(portInURL)\(path)\(query)")
    }

    private func checkLiteral(_ address: IPAddress) throws(ProvisioError) {
        if let refused = refusedClass(of: address) {
            throw ProvisioError(
                .outboundAddressRefused, "The destination is \(refused.nounPhrase), which outbound calls may not reach.")
        }
    }

    /// DNS names: LDH labels of 1–63 characters, not starting or ending with a hyphen, at most 253
    /// characters, one optional trailing dot.
    private func checkHostName(_ host: String) throws(ProvisioError) {
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        // What inet_aton, browsers (WHATWG "ends in a number") and resolvers may read as an
        // IPv4 address in a non-canonical spelling; no real top-level domain is numeric.
        if let last = labels.last, Self.looksNumeric(last) {
            throw Self.invalid("The URL's host is a numeric address not written as a dotted quad such as 192.0.2.1.")
        }
        guard !name.isEmpty, name.utf8.count <= 253,
            labels.allSatisfy({ label in
                (1...63).contains(label.utf8.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.utf8.allSatisfy { Self.isLetterDigitHyphen($0) }
            })
        else {
            throw Self.invalid("The URL's host is not a valid DNS name (letters, digits, hyphens and dots; punycode for IDNs).")
        }
        if name == "localhost" || name.hasSuffix(".localhost") {
            // RFC 6761: these names are the local host whatever DNS says. The allow-list can
            // admit them only if it admits 127.0.0.1.
            guard allows(IPAddress(bytes: [127, 0, 0, 1])!) else {
                throw ProvisioError(
                    .outboundAddressRefused, "The destination is a loopback name, which outbound calls may not reach.")
            }
        }
    }

    /// `host` and `port` of an authority without userinfo; the port text nil when absent.
    private static func splitAuthority(_ authority: ArraySlice<UInt8>) throws(ProvisioError) -> (
        host: ArraySlice<UInt8>, port: ArraySlice<UInt8>?
    ) {
        let colon = UInt8(ascii: ":")
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else {
                throw Self.invalid("The URL's IPv6 address is not valid (zone ids are not allowed).")
            }
            let host = authority[...close]
            let rest = authority[(close + 1)...]
            guard !rest.isEmpty else { return (host, nil) }
            guard rest.first == colon else { throw Self.invalid("The URL's host could not be read.") }
            return (host, rest.dropFirst())
        }
        guard let colonIndex = authority.firstIndex(of: colon) else { return (authority, nil) }
        return (authority[..<colonIndex], authority[(colonIndex + 1)...])
    }

    /// All digits, or `0x` followed by hex digits (possibly none, which inet_aton reads as 0).
    private static func looksNumeric(_ label: Substring) -> Bool {
        let bytes = Array(label.utf8)
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "0"), bytes[1] | 0x20 == UInt8(ascii: "x") {
            return bytes.dropFirst(2).allSatisfy { isHexDigit($0) }
        }
        return !bytes.isEmpty && bytes.allSatisfy { (48...57).contains($0) }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (97...102).contains(byte | 0x20)
    }

    private static func isLetterDigitHyphen(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (97...122).contains(byte | 0x20) || byte == UInt8(ascii: "-")
    }

    private static let urlCharacters = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=%".utf8)

    /// RFC 3986's unreserved, reserved and `%` characters, every `%` followed by two hex digits.
    /// Foundation's parser is more lenient (it re-encodes stray `%` and takes non-ASCII), and what
    /// it tolerates another HTTP client may read differently.
    private static func hasOnlyURLCharacters(_ utf8: [UInt8]) -> Bool {
        for (index, byte) in utf8.enumerated() {
            guard urlCharacters.contains(byte) else { return false }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < utf8.count, isHexDigit(utf8[index + 1]), isHexDigit(utf8[index + 2]) else {
                    return false
                }
            }
        }
        return true
    }

    private static func invalid(_ message: String) -> ProvisioError {
        ProvisioError(.outboundURLInvalid, message)
    }

    // MARK: - Allow-list

    /// Parses the operator's allow-list (an environment variable or flag): comma-separated CIDR
    /// blocks such as `10.0.0.0/8, fd00::/8`. Whitespace around entries and empty entries are
    /// ignored; any other unreadable entry fails the whole list, so a typo never widens or
    /// silently narrows it.
    public static func parseAllowList(_ text: String) throws(ProvisioError) -> [IPAddressRange] {
        var ranges: [IPAddressRange] = []
        for (position, entry) in text.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            guard let range = IPAddressRange(cidr: trimmed) else {
                throw ProvisioError(
                    .invalidOutboundAllowList,
                    "Entry \(position + 1) of the outbound allow-list is not a CIDR block such as 10.0.0.0/8 or fd00::/8.")
            }
            ranges.append(range)
        }
        return ranges
    }
}
