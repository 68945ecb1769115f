import Foundation

/// https://developer.apple.com/documentation/passkit/pkencryptionscheme
///
/// `NS_STRING_ENUM` in PKConstants.h, so Swift imports `init(rawValue:)` only (no `init(_:)`).
public struct PKEncryptionScheme: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    /// https://developer.apple.com/documentation/passkit/pkencryptionscheme/init(rawvalue:)
    public init(rawValue: String) { self.rawValue = rawValue }

    /// https://developer.apple.com/documentation/passkit/pkencryptionscheme/ecc_v2
    @available(iOS 9.0, *)
    public static let ECC_V2 = PKEncryptionScheme(rawValue: "ECC_V2")
    /// https://developer.apple.com/documentation/passkit/pkencryptionscheme/rsa_v2
    @available(iOS 10.0, *)
    public static let RSA_V2 = PKEncryptionScheme(rawValue: "RSA_V2")
}
