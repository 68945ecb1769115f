import Foundation

/// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration
open class PKAddPaymentPassRequestConfiguration: NSObject {
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/encryptionscheme
    public let encryptionScheme: PKEncryptionScheme
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/cardholdername
    open var cardholderName: String?
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/primaryaccountsuffix
    open var primaryAccountSuffix: String?
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/localizeddescription
    open var localizedDescription: String?
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/primaryaccountidentifier
    open var primaryAccountIdentifier: String?
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/paymentnetwork
    open var paymentNetwork: PKPaymentNetwork?
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/productidentifiers
    open var productIdentifiers: Set<String> = []
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/style
    open var style: PKAddPaymentPassStyle = .payment
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/requiresfelicasecureelement
    open var requiresFelicaSecureElement: Bool = false

    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/init(encryptionscheme:)
    public init?(encryptionScheme: PKEncryptionScheme) {
        guard encryptionScheme == .ECC_V2 || encryptionScheme == .RSA_V2 else { return nil }
        self.encryptionScheme = encryptionScheme
        super.init()
    }

    /// Not part of Apple's API: what the device is told.
    var standInRequest: PassKitStandInAddRequest {
        PassKitStandInAddRequest(
            encryptionScheme: encryptionScheme.rawValue, cardholderName: cardholderName,
            primaryAccountSuffix: primaryAccountSuffix,
            localizedDescription: localizedDescription, primaryAccountIdentifier: primaryAccountIdentifier,
            paymentNetwork: paymentNetwork?.rawValue, requiresFelicaSecureElement: requiresFelicaSecureElement)
    }
}

/// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequest
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

/// https://developer.apple.com/documentation/passkit/pkaddpaymentpassviewcontrollerdelegate
public protocol PKAddPaymentPassViewControllerDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassviewcontrollerdelegate/addpaymentpassviewcontroller(_:generaterequestwithcertificatechain:nonce:noncesignature:completionhandler:)
    func addPaymentPassViewController(
        _ controller: PKAddPaymentPassViewController, generateRequestWithCertificateChain certificates: [Data], nonce: Data,
        nonceSignature: Data, completionHandler handler: @escaping @Sendable (PKAddPaymentPassRequest) -> Void)

    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassviewcontrollerdelegate/addpaymentpassviewcontroller(_:didfinishadding:error:)
    func addPaymentPassViewController(
        _ controller: PKAddPaymentPassViewController, didFinishAdding pass: PKPaymentPass?, error: (any Error)?)
}

/// https://developer.apple.com/documentation/passkit/pkaddpaymentpassviewcontroller
///
/// Stand-in behaviour (not Apple's API): when presented, it asks the device for the cardholder's
/// choice, calls the delegate for the request, forwards it to the device and reports the result;
/// no request within the device's `requestTimeout`, an empty request, or Apple / the network
/// refusing it end the add with `PKAddPaymentPassError.systemCancelled` (the delegate's errors are
/// `PKAddPaymentPassError` codes in `PKPassKitErrorDomain`, as Apple documents).
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
        delegate.addPaymentPassViewController(
            self, generateRequestWithCertificateChain: session.certificates, nonce: session.nonce,
            nonceSignature: session.nonceSignature
        ) { request in
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
