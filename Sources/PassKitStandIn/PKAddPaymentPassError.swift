import Foundation

/// https://developer.apple.com/documentation/passkit/pkpasskiterrordomain
@available(iOS 6.0, *)
public let PKPassKitErrorDomain: String = "PKPassKitErrorDomain"

/// https://developer.apple.com/documentation/passkit/pkaddpaymentpasserror
///
/// PassKit reports these as `NSError` codes in `PKPassKitErrorDomain` (PKError.h).
@available(iOS 9.0, *)
public enum PKAddPaymentPassError: Int, Sendable {
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpasserror/unsupported
    case unsupported = 0
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpasserror/usercancelled
    case userCancelled = 1
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpasserror/systemcancelled
    case systemCancelled = 2
}
