/// RFC 3986 percent-encoding as OAuth 1.0a (RFC 5849 §3.6) uses it: every byte of the UTF-8
/// form except the unreserved characters becomes `%XX` with upper-case hex.
enum OAuthPercentEncoding {
    static func encode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    /// The inverse, for the header's quoted values; nil for a malformed escape or bytes that
    /// are not UTF-8.
    static func decode(_ text: String) -> String? {
        var bytes = [UInt8]()
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
