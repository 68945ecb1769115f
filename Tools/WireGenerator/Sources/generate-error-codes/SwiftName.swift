/// A code's Swift constant: `card_not_found` is `cardNotFound`. The words below are written as
/// Swift writes acronyms (`invalid_pan` is `invalidPAN`), and `passkit` as Apple spells it.
enum SwiftName {
    static let spelled: [String: String] = [
        "json": "JSON", "url": "URL", "https": "HTTPS", "otp": "OTP", "pan": "PAN", "png": "PNG",
        "ca": "CA", "bin": "BIN", "io": "IO", "tls": "TLS", "passkit": "PassKit",
    ]

    static func of(_ code: String) -> String {
        let words = code.split(separator: "_").map(String.init)
        let first = words[0] == "passkit" ? "passKit" : words[0]
        return first + words.dropFirst().map { spelled[$0] ?? ($0.prefix(1).uppercased() + $0.dropFirst()) }.joined()
    }
}
