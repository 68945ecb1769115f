import Foundation

/// https://developer.apple.com/documentation/passkit/pkaddpaymentpassviewcontrollerdelegate
///
/// The request method is one Objective-C method that Swift imports twice (completion handler and
/// `async`); implement either. The stand-in's defaults bridge one to the other (see
/// `StandInAsyncBridge`), as the Objective-C runtime does on a device.
@available(iOS 9.0, *)
public protocol PKAddPaymentPassViewControllerDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassviewcontrollerdelegate/addpaymentpassviewcontroller(_:generaterequestwithcertificatechain:nonce:noncesignature:completionhandler:)
    func addPaymentPassViewController(
        _ controller: PKAddPaymentPassViewController, generateRequestWithCertificateChain certificates: [Data], nonce: Data,
        nonceSignature: Data, completionHandler handler: @escaping (PKAddPaymentPassRequest) -> Void)

    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassviewcontrollerdelegate/addpaymentpassviewcontroller(_:generaterequestwithcertificatechain:nonce:noncesignature:completionhandler:)
    func addPaymentPassViewController(
        _ controller: PKAddPaymentPassViewController, generateRequestWithCertificateChain certificates: [Data], nonce: Data,
        nonceSignature: Data
    ) async -> PKAddPaymentPassRequest

    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassviewcontrollerdelegate/addpaymentpassviewcontroller(_:didfinishadding:error:)
    func addPaymentPassViewController(
        _ controller: PKAddPaymentPassViewController, didFinishAdding pass: PKPaymentPass?, error: (any Error)?)
}

@available(iOS 9.0, *)
extension PKAddPaymentPassViewControllerDelegate {
    /// Not part of Apple's API: the completion-handler form of a delegate that implements the
    /// `async` one (an empty request when it implements neither).
    public func addPaymentPassViewController(
        _ controller: PKAddPaymentPassViewController, generateRequestWithCertificateChain certificates: [Data], nonce: Data,
        nonceSignature: Data, completionHandler handler: @escaping (PKAddPaymentPassRequest) -> Void
    ) {
        guard !StandInAsyncBridge.inBaseAsyncForm else {
            handler(PKAddPaymentPassRequest())
            return
        }
        // As an existential, so the task does not capture `Self`'s metatype.
        let delegate: any PKAddPaymentPassViewControllerDelegate = self
        let call = StandInHandoff(value: (delegate: delegate, handler: handler))
        Task {
            let request = await call.value.delegate.addPaymentPassViewController(
                controller, generateRequestWithCertificateChain: certificates, nonce: nonce, nonceSignature: nonceSignature)
            call.value.handler(request)
        }
    }

    /// Not part of Apple's API: the `async` form of a delegate that implements the
    /// completion-handler one.
    public func addPaymentPassViewController(
        _ controller: PKAddPaymentPassViewController, generateRequestWithCertificateChain certificates: [Data], nonce: Data,
        nonceSignature: Data
    ) async -> PKAddPaymentPassRequest {
        let answer = await withCheckedContinuation {
            (continuation: CheckedContinuation<StandInHandoff<PKAddPaymentPassRequest>, Never>) in
            StandInAsyncBridge.$inBaseAsyncForm.withValue(true) {
                addPaymentPassViewController(
                    controller, generateRequestWithCertificateChain: certificates, nonce: nonce, nonceSignature: nonceSignature
                ) { request in
                    continuation.resume(returning: StandInHandoff(value: request))
                }
            }
        }
        return answer.value
    }
}
