import Foundation
import ProvisioClient
import ProvisioCore

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif

/// How an in-app verification ended.
public enum VerificationResult: Sendable, Hashable {
    /// The network accepted the activation data; the pass is active.
    case activated(WalletPassSnapshot)
    /// The pass needed nothing (already active).
    case alreadyActive(WalletPassSnapshot)
    case failed(ProvisioClientError)
}

/// The yellow path in the app: Wallet opens the app with `appLaunchURL`
/// (`passTypeIdentifier`, `serialNumber`, `action=verify`); the app verifies the cardholder its
/// own way, then this finds the pass on the iPhone or the Watch, fetches activation data and has
/// Wallet activate the pass. Parsing and lookup are `ProvisioCore`'s (`WalletDeepLink`,
/// `PassLibrarySnapshot`); this maps them to PassKit.
@MainActor
public final class InAppVerification {
    public let library: WalletLibrary
    public let provider: any ActivationDataProvider

    public init(library: WalletLibrary, provider: any ActivationDataProvider) {
        self.library = library
        self.provider = provider
    }

    /// Handles the URL Wallet opened the app with. Call it after the cardholder authenticated.
    public func verify(_ url: URL) async -> VerificationResult {
        let link: WalletDeepLink
        do {
            link = try WalletDeepLink(url: url)
        } catch {
            return .failed(
                ProvisioClientError(
                    .invalidDeepLink, "The URL is not Wallet's verification link.", userMessage: ProvisioClientError.tryAgain))
        }
        guard let pass = library.snapshot().pass(for: link), let passKitPass = passKitPass(serialNumber: pass.serialNumber)
        else {
            return .failed(
                ProvisioClientError(
                    .verificationPassNotFound, "No pass with this serial number on the iPhone or the Watch.",
                    userMessage: "This card is no longer in Apple Wallet."))
        }
        if pass.activationState == .activated { return .alreadyActive(pass) }
        let activationData: Data
        do {
            guard let data = Data(base64Encoded: try await provider.activationData(for: pass)) else {
                return .failed(
                    ProvisioClientError(
                        .verificationDataInvalid, "The activation data is not base64.",
                        userMessage: ProvisioClientError.tryAgain))
            }
            activationData = data
        } catch {
            return .failed(ProvisioClientError(payloadError: error))
        }
        let outcome: Result<Void, ProvisioClientError> = await withCheckedContinuation { continuation in
            // @Sendable, not main-actor isolated: PassKit calls it on its own queue, and SDKs before
            // Apple's current one do not mark the completion @Sendable themselves.
            library.passLibrary.activate(passKitPass, activationData: activationData) { @Sendable activated, error in
                if activated {
                    continuation.resume(returning: .success(()))
                } else {
                    let code = (error as NSError?).map { "\($0.domain) \($0.code)" } ?? "no error"
                    continuation.resume(
                        returning: .failure(
                            ProvisioClientError(
                                .verificationRefused, "Wallet refused the activation data (\(code)).",
                                userMessage: "We couldn't verify this card. Please contact your bank.")))
                }
            }
        }
        if case .failure(let error) = outcome { return .failed(error) }
        let activated = library.snapshot().pass(serialNumber: pass.serialNumber) ?? pass
        return .activated(activated)
    }

    /// PassKit's own object for the pass (local first, then the Watch's).
    private func passKitPass(serialNumber: String) -> PKSecureElementPass? {
        let local = library.passLibrary.passes(of: .secureElement).compactMap(\.secureElementPass)
        return (local + library.passLibrary.remoteSecureElementPasses).first { $0.serialNumber == serialNumber }
    }
}
