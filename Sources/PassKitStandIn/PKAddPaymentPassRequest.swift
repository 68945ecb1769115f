import Foundation

/// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequest
@available(iOS 9.0, *)
open class PKAddPaymentPassRequest: NSObject {
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequest/encryptedpassdata
    open var encryptedPassData: Data?
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequest/activationdata
    open var activationData: Data?
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequest/ephemeralpublickey
    open var ephemeralPublicKey: Data?
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequest/wrappedkey
    open var wrappedKey: Data?

    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequest/init()
    public override init() {
        super.init()
    }

    /// Not part of Apple's API: what PassKit forwards to Apple.
    var standInResponse: PassKitStandInAddResponse {
        PassKitStandInAddResponse(
            encryptedPassData: encryptedPassData, activationData: activationData, ephemeralPublicKey: ephemeralPublicKey,
            wrappedKey: wrappedKey)
    }
}
