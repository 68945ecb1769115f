#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioCore
    import Testing

    /// A device whose sessions are canned: enough to drive the stand-in's own behaviour.
    final class CannedDevice: PassKitStandInDevice, Sendable {
        let canAddPaymentPasses = true
        let isPassLibraryAvailable = true
        let requestTimeout: Duration
        let passes: [PassKitStandInPass]
        private let calls = Locked(0)

        init(requestTimeout: Duration = .seconds(20), passes: [PassKitStandInPass] = []) {
            self.requestTimeout = requestTimeout
            self.passes = passes
        }

        var handlerCalls: Int { calls.value }

        func secureElementPasses(remote: Bool) -> [PassKitStandInPass] { passes.filter { $0.isRemote == remote } }
        func canAddSecureElementPass(primaryAccountIdentifier: String) -> Bool {
            !passes.contains { $0.primaryAccountIdentifier == primaryAccountIdentifier }
        }
        func activate(serialNumber: String, activationData: Data) async throws -> PassKitStandInPass {
            throw NSError(domain: PKPassKitErrorDomain, code: 1)  // PKPassKitError.Code.invalidDataError
        }
        func beginAdd(_ request: PassKitStandInAddRequest) async throws -> PassKitStandInAddSession? {
            PassKitStandInAddSession(
                id: "s1", certificates: [Data([1])], nonce: Data([2]), nonceSignature: Data([3]), isRemote: false)
        }
        func finishAdd(_ session: PassKitStandInAddSession, response: PassKitStandInAddResponse) async throws
            -> PassKitStandInPass
        {
            PassKitStandInPass(
                serialNumber: "SN1", primaryAccountIdentifier: "pai", primaryAccountNumberSuffix: "1234",
                deviceAccountIdentifier: "DAI", activationState: .activated, isRemote: false, deviceName: "iPhone")
        }
        func requestHandlerCalled(for session: PassKitStandInAddSession) {
            calls.withLock { $0 += 1 }
        }
    }

    /// Records what PassKit tells the delegate, and answers the request as told.
    final class RecordingDelegate: NSObject, PKAddPaymentPassViewControllerDelegate, @unchecked Sendable {
        // @unchecked: the stand-in calls the delegate on the main actor only; tests read after it finished.
        var answer: ((@escaping (PKAddPaymentPassRequest) -> Void) -> Void)?
        var finished: CheckedContinuation<(String?, Int?), Never>?

        func addPaymentPassViewController(
            _ controller: PKAddPaymentPassViewController, generateRequestWithCertificateChain certificates: [Data], nonce: Data,
            nonceSignature: Data, completionHandler handler: @escaping (PKAddPaymentPassRequest) -> Void
        ) {
            #expect(certificates == [Data([1])])
            #expect(nonce == Data([2]))
            answer?(handler)
        }

        func addPaymentPassViewController(
            _ controller: PKAddPaymentPassViewController, didFinishAdding pass: PKPaymentPass?, error: (any Error)?
        ) {
            finished?.resume(returning: (pass?.serialNumber, error.map { ($0 as NSError).code }))
            finished = nil
        }
    }

    @Suite struct PassKitStandInTests {
        @Test func configurationAcceptsOnlyApplesSchemes() {
            #expect(PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)?.encryptionScheme == .ECC_V2)
            #expect(PKAddPaymentPassRequestConfiguration(encryptionScheme: .RSA_V2) != nil)
            #expect(PKAddPaymentPassRequestConfiguration(encryptionScheme: PKEncryptionScheme(rawValue: "ROT13")) == nil)
            let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)
            #expect(configuration?.style == .payment)
            #expect(configuration?.requiresFelicaSecureElement == false)
            #expect(configuration?.paymentNetwork == nil)
        }

        @MainActor @Test func withoutADeviceNothingCanBeAdded() {
            #expect(!PKAddPaymentPassViewController.canAddPaymentPass())
            #expect(!PKPassLibrary.isPassLibraryAvailable())
            let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)!
            #expect(PKAddPaymentPassViewController(requestConfiguration: configuration, delegate: nil) == nil)
            #expect(PKPassLibrary().passes(of: .secureElement).isEmpty)
        }

        @Test func thePassLibraryReadsTheDevice() {
            let local = PassKitStandInPass(
                serialNumber: "L", primaryAccountIdentifier: "p1", primaryAccountNumberSuffix: "1111",
                deviceAccountIdentifier: "D1", activationState: .requiresActivation, isRemote: false, deviceName: "iPhone")
            var remote = local
            remote.serialNumber = "R"
            remote.isRemote = true
            remote.activationState = .suspended
            let device = CannedDevice(passes: [local, remote])
            PassKitStandInEnvironment.$device.withValue(device) {
                let library = PKPassLibrary()
                let phone = library.passes(of: .secureElement).compactMap(\.secureElementPass)
                #expect(phone.map(\.serialNumber) == ["L"])
                #expect(phone.first?.passActivationState == .requiresActivation)
                #expect(phone.first?.isRemotePass == false)
                #expect(library.remoteSecureElementPasses.map(\.serialNumber) == ["R"])
                #expect(library.remoteSecureElementPasses.first?.passActivationState == .suspended)
                #expect(library.passes(of: .barcode).isEmpty)
                #expect(!library.canAddSecureElementPass(primaryAccountIdentifier: "p1"))
                #expect(library.canAddSecureElementPass(primaryAccountIdentifier: "p2"))
            }
        }

        @MainActor @Test func presentingRunsTheAddAndAnEmptyRequestFails() async {
            let device = CannedDevice()
            let delegate = RecordingDelegate()
            delegate.answer = { handler in handler(PKAddPaymentPassRequest()) }
            let (serial, code) = await PassKitStandInEnvironment.$device.withValue(device) {
                let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)!
                let controller = PKAddPaymentPassViewController(requestConfiguration: configuration, delegate: delegate)!
                return await withCheckedContinuation { continuation in
                    delegate.finished = continuation
                    UIViewController(nibName: nil, bundle: nil).present(controller, animated: true)
                }
            }
            #expect(serial == nil)
            #expect(code == PKAddPaymentPassError.systemCancelled.rawValue)
            #expect(device.handlerCalls == 1)
        }

        @MainActor @Test func aFilledRequestAddsThePass() async {
            let device = CannedDevice()
            let delegate = RecordingDelegate()
            delegate.answer = { handler in
                let request = PKAddPaymentPassRequest()
                request.encryptedPassData = Data([9])
                request.activationData = Data([8])
                request.ephemeralPublicKey = Data([7])
                handler(request)
            }
            let (serial, code) = await PassKitStandInEnvironment.$device.withValue(device) {
                let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)!
                let controller = PKAddPaymentPassViewController(requestConfiguration: configuration, delegate: delegate)!
                return await withCheckedContinuation { continuation in
                    delegate.finished = continuation
                    UIViewController(nibName: nil, bundle: nil).present(controller, animated: true)
                }
            }
            #expect(serial == "SN1")
            #expect(code == nil)
        }

        @MainActor @Test func noAnswerWithinTheTimeoutIsSystemCancelled() async {
            let device = CannedDevice(requestTimeout: .milliseconds(100))
            let delegate = RecordingDelegate()
            delegate.answer = { _ in }
            let (serial, code) = await PassKitStandInEnvironment.$device.withValue(device) {
                let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)!
                let controller = PKAddPaymentPassViewController(requestConfiguration: configuration, delegate: delegate)!
                return await withCheckedContinuation { continuation in
                    delegate.finished = continuation
                    UIViewController(nibName: nil, bundle: nil).present(controller, animated: true)
                }
            }
            #expect(serial == nil)
            #expect(code == PKAddPaymentPassError.systemCancelled.rawValue)
            #expect(device.handlerCalls == 0)
        }

        @Test func imagesReadPNGDimensions() {
            var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
            png.append(contentsOf: Array("IHDR".utf8))
            png.append(contentsOf: [0, 0, 0x06, 0x00, 0, 0, 0x03, 0xC9])
            let image = UIImage(data: png)
            #expect(image?.cgImage?.width == 1536)
            #expect(image?.cgImage?.height == 969)
            #expect(UIImage(data: Data("not a png".utf8)) == nil)
        }
    }
#endif
