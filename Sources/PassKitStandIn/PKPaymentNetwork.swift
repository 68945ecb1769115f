import Foundation

/// https://developer.apple.com/documentation/passkit/pkpaymentnetwork
///
/// `NS_EXTENSIBLE_STRING_ENUM` in PKConstants.h: both `init(_:)` and `init(rawValue:)`.
public struct PKPaymentNetwork: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/init(rawvalue:)
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/init(_:)
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/amex
    @available(iOS 8.0, *)
    public static let amex = PKPaymentNetwork(rawValue: "AmEx")
    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/chinaunionpay
    @available(iOS 9.2, *)
    public static let chinaUnionPay = PKPaymentNetwork(rawValue: "ChinaUnionPay")
    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/discover
    @available(iOS 9.0, *)
    public static let discover = PKPaymentNetwork(rawValue: "Discover")
    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/jcb
    @available(iOS 10.1, *)
    public static let JCB = PKPaymentNetwork(rawValue: "JCB")
    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/maestro
    @available(iOS 12.0, *)
    public static let maestro = PKPaymentNetwork(rawValue: "Maestro")
    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/mastercard
    @available(iOS 8.0, *)
    public static let masterCard = PKPaymentNetwork(rawValue: "MasterCard")
    /// https://developer.apple.com/documentation/passkit/pkpaymentnetwork/visa
    @available(iOS 8.0, *)
    public static let visa = PKPaymentNetwork(rawValue: "Visa")
}
