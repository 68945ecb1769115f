/// What kind of destination an address is, after the IANA special-purpose address registries.
///
/// Everything except `publicUnicast` is "internal": an outbound call to it could reach the
/// server's own host, its private network or a cloud metadata service, or is not a real unicast
/// destination at all. The raw values are stable names for logs and metrics.
public enum AddressClass: String, Sendable, Hashable, CaseIterable {
    case publicUnicast = "public"
    /// 127.0.0.0/8, ::1.
    case loopback
    /// 10/8, 172.16/12, 192.168/16 (RFC 1918).
    case privateNetwork = "private"
    /// 169.254/16 (includes the cloud metadata address 169.254.169.254), fe80::/10.
    case linkLocal = "link_local"
    /// 0.0.0.0/8 ("this network"; Linux connects 0.0.0.0 to the local host), ::/128.
    case unspecified
    /// 224/4, ff00::/8.
    case multicast
    /// 255.255.255.255.
    case broadcast
    /// 100.64/10, carrier-grade NAT (RFC 6598).
    case sharedAddressSpace = "shared"
    /// 240/4, 192.0.0/24, 192.88.99/24, 2001::/23, local-use NAT64, and IPv6 outside 2000::/3.
    case reserved
    /// 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20.
    case documentation
    /// 198.18/15, 2001:2::/48 (RFC 2544 / RFC 5180 benchmarking).
    case benchmarking
    /// fc00::/7 (includes fd00:ec2::254, AWS's IPv6 metadata address).
    case uniqueLocal = "unique_local"
    /// fec0::/10, deprecated but still routed by some stacks.
    case siteLocal = "site_local"

    public var isInternal: Bool { self != .publicUnicast }

    /// "a private-network address": for messages that must name the class, never the address.
    public var nounPhrase: String {
        switch self {
        case .publicUnicast: "a public address"
        case .loopback: "a loopback address"
        case .privateNetwork: "a private-network address"
        case .linkLocal: "a link-local address"
        case .unspecified: "an unspecified (this-network) address"
        case .multicast: "a multicast address"
        case .broadcast: "a broadcast address"
        case .sharedAddressSpace: "a shared (carrier-grade NAT) address"
        case .reserved: "a reserved address"
        case .documentation: "a documentation address"
        case .benchmarking: "a benchmarking address"
        case .uniqueLocal: "a unique-local address"
        case .siteLocal: "a site-local address"
        }
    }
}

extension IPAddress {
    /// The class of this address. IPv6 addresses that embed an IPv4 address (mapped, compatible,
    /// NAT64, 6to4) take the class of the embedded address, so `::ffff:127.0.0.1` is loopback.
    public var addressClass: AddressClass {
        guard family == .ipv6 else { return Self.classifyIPv4(bytes) }
        // Packets to these go to (or through) the embedded IPv4 address, so judge that address.
        if let embedded = embeddedIPv4 { return Self.classifyIPv4(embedded.bytes) }
        return Self.classifyIPv6(bytes)
    }

    private static func classifyIPv4(_ b: [UInt8]) -> AddressClass {
        switch (b[0], b[1], b[2]) {
        case (0, _, _): .unspecified
        case (10, _, _): .privateNetwork
        case (100, 64...127, _): .sharedAddressSpace
        case (127, _, _): .loopback
        case (169, 254, _): .linkLocal
        case (172, 16...31, _): .privateNetwork
        case (192, 0, 0): .reserved
        case (192, 0, 2): .documentation
        case (192, 88, 99): .reserved  // deprecated 6to4 relay anycast (RFC 7526)
        case (192, 168, _): .privateNetwork
        case (198, 18...19, _): .benchmarking
        case (198, 51, 100): .documentation
        case (203, 0, 113): .documentation
        case (224...239, _, _): .multicast
        case (255, 255, 255) where b[3] == 255: .broadcast
        case (240...255, _, _): .reserved
        default: .publicUnicast
        }
    }

    private static func classifyIPv6(_ b: [UInt8]) -> AddressClass {
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] <= 1 { return b[15] == 0 ? .unspecified : .loopback }
        let first = UInt16(b[0]) << 8 | UInt16(b[1])
        let second = UInt16(b[2]) << 8 | UInt16(b[3])
        switch first {
        case 0xff00...0xffff: return .multicast
        case 0xfe80...0xfebf: return .linkLocal
        case 0xfec0...0xfeff: return .siteLocal
        case 0xfc00...0xfdff: return .uniqueLocal
        case 0x2001 where second == 0x0db8: return .documentation
        case 0x2001 where second == 0x0002 && b[4] == 0 && b[5] == 0: return .benchmarking
        // IETF protocol assignments (Teredo, ORCHID, anycast services): no webhook lives there.
        case 0x2001 where second < 0x0200: return .reserved
        case 0x3fff where second < 0x1000: return .documentation
        // Only 2000::/3 is allocated for global unicast; anything else (64:ff9b:1::/48,
        // 100::/64 discard, ::ffff:0:0:0/96 SIIT, 5f00::/16 SRv6, unassigned space) is not public.
        case 0x2000...0x3fff: return .publicUnicast
        default: return .reserved
        }
    }
}
