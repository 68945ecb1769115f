import Foundation

/// https://developer.apple.com/documentation/passkit/pkpaymentpass
@available(iOS 8.0, *)
open class PKPaymentPass: PKSecureElementPass {}
