import ProvisioCore

/// The cardholder's email address, where a one-time code goes by email. A bounded, plain check
/// (not every address RFC 5322 allows): at most 254 characters of printable ASCII, one `@`, a
/// local part of 1 to 64 of letters, digits and ``!#$%&'*+/=?^_`{|}~.-`` (no dot first, last or
/// twice in a row), and a domain of at least two dot-separated labels of 1 to 63 letters, digits
/// and hyphens (no hyphen first or last), the last of two or more letters. Stored sealed by the
/// vault; only `masked` is ever shown.
public struct CardholderEmail: Sendable, Equatable {
    public static let maximumLength = 254

    /// The address as given.
    public let value: String

    /// `invalid_parameter` unless `value` is such an address. The message never quotes it.
    public init(_ value: String) throws {
        guard Self.isValid(value) else {
            throw ProvisioError(
                .invalidParameter,
                "cardholder_email must be an email address of at most 254 characters: a local part of 1 to 64 "
                    + "characters, one @, and a domain of dot-separated labels ending in two or more letters.")
        }
        try CardService.refuseCardNumber(in: value, field: "cardholder_email")
        self.value = value
    }

    /// The first character of the local part, three dots and the domain: `j•••@example.com`.
    public var masked: String {
        let at = value.lastIndex(of: "@")!
        return "\(value[value.startIndex])•••\(value[at...])"
    }

    private static let localSymbols = Set("!#$%&'*+/=?^_`{|}~.-".utf8)

    static func isValid(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard (3...maximumLength).contains(bytes.count), bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else { return false }
        let parts = bytes.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let (local, domain) = (Array(parts[0]), Array(parts[1]))
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        let dot = UInt8(ascii: ".")
        guard (1...64).contains(local.count), local.allSatisfy({ isAlphanumeric($0) || localSymbols.contains($0) }),
            local.first != dot, local.last != dot, !zip(local, local.dropFirst()).contains(where: { $0 == dot && $1 == dot })
        else { return false }
        let labels = domain.split(separator: dot, omittingEmptySubsequences: false)
        guard labels.count >= 2, let last = labels.last, last.count >= 2,
            last.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { return false }
        return labels.allSatisfy { label in
            (1...63).contains(label.count) && label.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") })
                && label.first != UInt8(ascii: "-") && label.last != UInt8(ascii: "-")
        }
    }
}
