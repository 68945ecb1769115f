/// Public-key algorithm IDs (RFC 9580 §9.1). Only RSA is implemented: it is what Google asks
/// issuers for ("2048 (or more) bit RSA keys"). The others are named to say which one a key
/// uses when it is refused.
enum PublicKeyAlgorithm: UInt8, Sendable {
    case rsa = 1
    case rsaEncryptOnly = 2
    case rsaSignOnly = 3
    case elgamal = 16
    case dsa = 17
    case ecdh = 18
    case ecdsa = 19
    case eddsaLegacy = 22
    case x25519 = 25
    case x448 = 26
    case ed25519 = 27
    case ed448 = 28

    static func name(_ raw: UInt8) -> String {
        PublicKeyAlgorithm(rawValue: raw).map { "\($0)" } ?? "algorithm \(raw)"
    }

    var isRSA: Bool { self == .rsa || self == .rsaEncryptOnly || self == .rsaSignOnly }
}
