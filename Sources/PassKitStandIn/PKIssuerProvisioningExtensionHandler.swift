import Foundation

/// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler
///
/// Each method is one Objective-C method that Swift imports twice (completion handler and
/// `async`); a subclass overrides either. Wallet calls the completion-handler form; the stand-in's
/// base forms bridge to each other (see `StandInAsyncBridge`), as the Objective-C runtime does on a
/// device, and answer "nothing to offer" when neither is overridden. Apple declares no initializer
/// of its own: `init()` is NSObject's.
@available(iOS 14.0, *)
open class PKIssuerProvisioningExtensionHandler: NSObject {
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler/status(completion:)
    open func status(completion: @escaping @Sendable (PKIssuerProvisioningExtensionStatus) -> Void) {
        guard !StandInAsyncBridge.inBaseAsyncForm else { return completion(PKIssuerProvisioningExtensionStatus()) }
        let handler = StandInHandoff(value: self)
        Task { completion(await handler.value.status()) }
    }

    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler/status(completion:)
    open func status() async -> PKIssuerProvisioningExtensionStatus {
        await bridged { done in status { done($0) } }
    }

    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler/passentries(completion:)
    open func passEntries(completion: @escaping @Sendable ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        guard !StandInAsyncBridge.inBaseAsyncForm else { return completion([]) }
        let handler = StandInHandoff(value: self)
        Task { completion(await handler.value.passEntries()) }
    }

    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler/passentries(completion:)
    open func passEntries() async -> [PKIssuerProvisioningExtensionPassEntry] {
        await bridged { done in passEntries { done($0) } }
    }

    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler/remotepassentries(completion:)
    open func remotePassEntries(completion: @escaping @Sendable ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        guard !StandInAsyncBridge.inBaseAsyncForm else { return completion([]) }
        let handler = StandInHandoff(value: self)
        Task { completion(await handler.value.remotePassEntries()) }
    }

    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler/remotepassentries(completion:)
    open func remotePassEntries() async -> [PKIssuerProvisioningExtensionPassEntry] {
        await bridged { done in remotePassEntries { done($0) } }
    }

    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler/generateaddpaymentpassrequestforpassentrywithidentifier(_:configuration:certificatechain:nonce:noncesignature:completionhandler:)
    open func generateAddPaymentPassRequestForPassEntryWithIdentifier(
        _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration, certificateChain certificates: [Data],
        nonce: Data, nonceSignature: Data, completionHandler completion: @escaping (PKAddPaymentPassRequest?) -> Void
    ) {
        guard !StandInAsyncBridge.inBaseAsyncForm else { return completion(nil) }
        let call = StandInHandoff(value: (handler: self, configuration: configuration, completion: completion))
        Task {
            let request = await call.value.handler.generateAddPaymentPassRequestForPassEntryWithIdentifier(
                identifier, configuration: call.value.configuration, certificateChain: certificates, nonce: nonce,
                nonceSignature: nonceSignature)
            call.value.completion(request)
        }
    }

    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler/generateaddpaymentpassrequestforpassentrywithidentifier(_:configuration:certificatechain:nonce:noncesignature:completionhandler:)
    open func generateAddPaymentPassRequestForPassEntryWithIdentifier(
        _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration, certificateChain certificates: [Data],
        nonce: Data, nonceSignature: Data
    ) async -> PKAddPaymentPassRequest? {
        await bridged { done in
            generateAddPaymentPassRequestForPassEntryWithIdentifier(
                identifier, configuration: configuration, certificateChain: certificates, nonce: nonce,
                nonceSignature: nonceSignature
            ) { done($0) }
        }
    }

    /// The base `async` form: calls the completion-handler form, marked as coming from here.
    private func bridged<Answer>(_ call: (@escaping @Sendable (Answer) -> Void) -> Void) async -> Answer {
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<StandInHandoff<Answer>, Never>) in
            StandInAsyncBridge.$inBaseAsyncForm.withValue(true) {
                call { continuation.resume(returning: StandInHandoff(value: $0)) }
            }
        }
        return answer.value
    }
}
