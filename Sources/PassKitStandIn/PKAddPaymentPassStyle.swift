import Foundation

/// https://developer.apple.com/documentation/passkit/pkaddpaymentpassstyle
@available(iOS 12.0, *)
public enum PKAddPaymentPassStyle: Int, Sendable {
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassstyle/payment
    case payment = 0
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassstyle/access
    case access = 1
}
