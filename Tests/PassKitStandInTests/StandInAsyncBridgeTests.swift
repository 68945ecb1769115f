#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioCore
    import Testing

    /// Swift imports each of PassKit's completion-handler methods twice (completion handler and
    /// `async`) and an app implements either; the stand-in must reach whichever it implements.
    @Suite struct StandInAsyncBridgeTests {
        /// A delegate that implements only the `async` form of PassKit's request method.
        final class AsyncOnlyDelegate: NSObject, PKAddPaymentPassViewControllerDelegate, Sendable {
            private let finished = Locked<CheckedContinuation<String?, Never>?>(nil)

            func expectFinish(_ continuation: CheckedContinuation<String?, Never>) {
                finished.withLock { $0 = continuation }
            }

            func addPaymentPassViewController(
                _ controller: PKAddPaymentPassViewController, generateRequestWithCertificateChain certificates: [Data],
                nonce: Data,
                nonceSignature: Data
            ) async -> PKAddPaymentPassRequest {
                let request = PKAddPaymentPassRequest()
                request.encryptedPassData = Data([9])
                request.activationData = Data([8])
                request.ephemeralPublicKey = Data([7])
                return request
            }

            func addPaymentPassViewController(
                _ controller: PKAddPaymentPassViewController, didFinishAdding pass: PKPaymentPass?, error: (any Error)?
            ) {
                let continuation = finished.withLock { continuation in
                    defer { continuation = nil }
                    return continuation
                }
                continuation?.resume(returning: pass?.serialNumber)
            }
        }

        /// A Wallet extension that overrides only the `async` forms.
        final class AsyncFormHandler: PKIssuerProvisioningExtensionHandler {
            override func status() async -> PKIssuerProvisioningExtensionStatus {
                let status = PKIssuerProvisioningExtensionStatus()
                status.passEntriesAvailable = true
                return status
            }

            override func generateAddPaymentPassRequestForPassEntryWithIdentifier(
                _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration, certificateChain certificates: [Data],
                nonce: Data, nonceSignature: Data
            ) async -> PKAddPaymentPassRequest? {
                let request = PKAddPaymentPassRequest()
                request.encryptedPassData = Data(identifier.utf8)
                return request
            }
        }

        /// A Wallet extension that overrides only the completion-handler forms.
        final class CompletionFormHandler: PKIssuerProvisioningExtensionHandler {
            override func status(completion: @escaping @Sendable (PKIssuerProvisioningExtensionStatus) -> Void) {
                let status = PKIssuerProvisioningExtensionStatus()
                status.requiresAuthentication = true
                completion(status)
            }
        }

        @MainActor @Test func aDelegateImplementingOnlyTheAsyncFormAddsThePass() async {
            let delegate = AsyncOnlyDelegate()
            let serial = await PassKitStandInEnvironment.$device.withValue(CannedDevice()) {
                let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)!
                let controller = PKAddPaymentPassViewController(requestConfiguration: configuration, delegate: delegate)!
                return await withCheckedContinuation { continuation in
                    delegate.expectFinish(continuation)
                    UIViewController(nibName: nil, bundle: nil).present(controller, animated: true)
                }
            }
            #expect(serial == "SN1")
        }

        @Test func walletsCompletionCallsReachTheAsyncOverrides() async {
            let handler = AsyncFormHandler()
            let available = await withCheckedContinuation { continuation in
                handler.status { continuation.resume(returning: $0.passEntriesAvailable) }
            }
            #expect(available)
            let data = await withCheckedContinuation { continuation in
                handler.generateAddPaymentPassRequestForPassEntryWithIdentifier(
                    "card-1", configuration: PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)!,
                    certificateChain: [], nonce: Data(), nonceSignature: Data()
                ) { continuation.resume(returning: $0?.encryptedPassData) }
            }
            #expect(data == Data("card-1".utf8))
            // The form it does not override answers PassKit's default.
            #expect(await handler.passEntries().isEmpty)
        }

        @Test func asyncCallsReachTheCompletionOverrides() async {
            let status = await CompletionFormHandler().status()
            #expect(status.requiresAuthentication)
        }

        @Test func aHandlerOverridingNothingAnswersOnceWithNothing() async {
            let handler = PKIssuerProvisioningExtensionHandler()
            let status = await handler.status()
            #expect(!status.passEntriesAvailable && !status.requiresAuthentication)
            let entries = await withCheckedContinuation { continuation in
                handler.remotePassEntries { continuation.resume(returning: $0.count) }
            }
            #expect(entries == 0)
            #expect(
                await handler.generateAddPaymentPassRequestForPassEntryWithIdentifier(
                    "x", configuration: PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)!, certificateChain: [],
                    nonce: Data(), nonceSignature: Data()) == nil)
        }
    }
#endif
