import ProvisioOutbound

extension OutboundPolicy {
    /// The same policy for an address the operator configured (the server-wide network
    /// connector): any address, since the operator chose it, with the same https rule.
    func trustingEveryAddress() -> OutboundPolicy {
        var policy = self
        policy.allowLoopback = true
        policy.allowedRanges = [IPAddressRange(cidr: "0.0.0.0/0"), IPAddressRange(cidr: "::/0")].compactMap { $0 }
        return policy
    }
}
