/// Comparisons of secrets (API keys, CSRF tokens, webhook signatures, one-time codes, nonces)
/// whose time does not depend on where two values first differ, so a secret cannot be guessed
/// byte by byte from response times; only the presented value's length shows.
public enum ConstantTime {
    /// Whether `presented` equals `expected`, reading every byte of `presented` whatever it
    /// holds. An empty `expected` matches nothing: an unset secret must not accept an empty one.
    public static func equal(_ presented: some Collection<UInt8>, _ expected: some Collection<UInt8>) -> Bool {
        let (presented, expected) = (Array(presented), Array(expected))
        var difference: UInt8 = presented.count == expected.count ? 0 : 1
        for index in presented.indices {
            difference |= presented[index] ^ (index < expected.count ? expected[index] : 0)
        }
        return difference == 0 && !expected.isEmpty
    }

    /// `equal` on the UTF-8 bytes of two strings.
    public static func equal(_ presented: String, _ expected: String) -> Bool {
        equal(presented.utf8, expected.utf8)
    }
}
