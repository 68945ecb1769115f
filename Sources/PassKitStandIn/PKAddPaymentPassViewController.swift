import Foundation

/// https://developer.apple.com/documentation/passkit/pkaddpaymentpassviewcontroller
///
/// Stand-in behaviour (not Apple's API): when presented, it asks the device for the cardholder's
/// choice, calls the delegate for the request, forwards it to the device and reports the result;
/// no request within the device's `requestTimeout`, an empty request, or Apple / the network
/// refusing it end the add with `PKAddPaymentPassError.systemCancelled` (the delegate's errors are
/// `PKAddPaymentPassError` codes in `PKPassKitErrorDomain`, as Apple documents).
@available(iOS 9.0, *)
open class PKAddPaymentPassViewController: UIViewController {
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassviewcontroller/delegate
    open weak var delegate: (any PKAddPaymentPassViewControllerDelegate)?

    private let configuration: PassKitStandInAddRequest
    private let device: any PassKitStandInDevice
    private var started = false

    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassviewcontroller/canaddpaymentpass()
    open class func canAddPaymentPass() -> Bool {
        PassKitStandInEnvironment.current.canAddPaymentPasses
    }

    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassviewcontroller/init(requestconfiguration:delegate:)
    public init?(
        requestConfiguration configuration: PKAddPaymentPassRequestConfiguration,
        delegate: (any PKAddPaymentPassViewControllerDelegate)?
    ) {
        let device = PassKitStandInEnvironment.current
        guard device.canAddPaymentPasses else { return nil }
        self.device = device
        self.configuration = configuration.standInRequest
        self.delegate = delegate
        super.init(nibName: nil, bundle: nil)
    }

    override func standInDidAppear() {
        guard !started else { return }
        started = true
        Task { await self.runAdd() }
    }

    private func runAdd() async {
        let session: PassKitStandInAddSession
        do {
            guard let begun = try await device.beginAdd(configuration) else {
                finish(nil, NSError(domain: PKPassKitErrorDomain, code: PKAddPaymentPassError.userCancelled.rawValue))
                return
            }
            session = begun
        } catch {
            finish(nil, error)
            return
        }
        guard let delegate else { return }
        let device = self.device
        // The first of the request handler and PassKit's timeout wins: the stream keeps the first
        // answer and drops the rest, and ends with it.
        let (answers, gate) = AsyncStream<PassKitStandInAddResponse?>.makeStream(bufferingPolicy: .bufferingOldest(1))
        let timeout = device.requestTimeout
        let timer = Task {
            try? await Task.sleep(for: timeout)
            gate.yield(nil)
            gate.finish()
        }
        defer { timer.cancel() }
        // PassKit calls the delegate with the completion-handler form, on the main thread; the
        // handler may be called from any thread, so it is @Sendable (not main-actor isolated).
        delegate.addPaymentPassViewController(
            self, generateRequestWithCertificateChain: session.certificates, nonce: session.nonce,
            nonceSignature: session.nonceSignature
        ) { @Sendable request in
            let response = request.standInResponse
            device.requestHandlerCalled(for: session)
            gate.yield(response)
            gate.finish()
        }
        var first = answers.makeAsyncIterator()
        guard let response = await first.next() ?? nil else {
            finish(nil, NSError(domain: PKPassKitErrorDomain, code: PKAddPaymentPassError.systemCancelled.rawValue))
            return
        }
        guard !response.isEmpty else {
            finish(nil, NSError(domain: PKPassKitErrorDomain, code: PKAddPaymentPassError.systemCancelled.rawValue))
            return
        }
        do {
            let pass = try await device.finishAdd(session, response: response)
            finish(PKPaymentPass(record: pass), nil)
        } catch {
            finish(nil, NSError(domain: PKPassKitErrorDomain, code: PKAddPaymentPassError.systemCancelled.rawValue))
        }
    }

    private func finish(_ pass: PKPaymentPass?, _ error: (any Error)?) {
        delegate?.addPaymentPassViewController(self, didFinishAdding: pass, error: error)
    }
}
