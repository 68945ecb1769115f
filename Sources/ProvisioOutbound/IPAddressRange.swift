/// A CIDR block such as `10.0.0.0/8` or `fd00::/8`, used for the operator's outbound allow-list.
public struct IPAddressRange: Sendable, Hashable, CustomStringConvertible {
    /// The first address of the block (host bits cleared).
    public let network: IPAddress
    /// 0–32 for IPv4, 0–128 for IPv6.
    public let prefixLength: Int

    /// Host bits in `network` are cleared, so `10.1.2.3/8` is the block `10.0.0.0/8`: operators
    /// often write a host's address with its subnet length, and masking cannot widen the block.
    public init?(network: IPAddress, prefixLength: Int) {
        let bits = network.bytes.count * 8
        guard (0...bits).contains(prefixLength) else { return nil }
        self.network = IPAddress(bytes: Self.masked(network.bytes, prefixLength: prefixLength))!
        self.prefixLength = prefixLength
    }

    /// `address/length`, the address in the strict forms of `IPAddress` (canonical dotted quad, or
    /// IPv6 without brackets), the length in decimal without leading zeros. A bare address is the
    /// single-address block (`/32` or `/128`). Host bits are accepted and masked (see above).
    public init?(cidr text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let addressText = parts[0]
        guard !addressText.hasPrefix("[") else { return nil }
        guard let address = IPAddress(ipv4: addressText) ?? IPAddress(ipv6: addressText) else { return nil }
        guard parts.count == 2 else {
            self.init(network: address, prefixLength: address.bytes.count * 8)
            return
        }
        let lengthText = parts[1]
        guard !lengthText.isEmpty, lengthText.count <= 3, lengthText.utf8.allSatisfy({ (48...57).contains($0) }),
            lengthText == "0" || !lengthText.hasPrefix("0"), let length = Int(lengthText)
        else { return nil }
        self.init(network: address, prefixLength: length)
    }

    /// True when `address` is of the same family and shares the first `prefixLength` bits. An
    /// IPv4 block does not contain IPv4-mapped IPv6 addresses; `OutboundPolicy` unmaps first.
    public func contains(_ address: IPAddress) -> Bool {
        address.family == network.family
            && Self.masked(address.bytes, prefixLength: prefixLength) == network.bytes
    }

    public var description: String { "\(network)/\(prefixLength)" }

    private static func masked(_ bytes: [UInt8], prefixLength: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let kept = min(max(prefixLength - index * 8, 0), 8)
            return kept == 0 ? 0 : byte & ~UInt8(0xff >> kept)
        }
    }
}
