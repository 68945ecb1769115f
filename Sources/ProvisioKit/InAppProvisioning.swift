import Foundation
import ProvisioClient
import ProvisioCore

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif

/// How an in-app add ended.
public enum AddCardResult: Sendable, Hashable {
    /// Wallet added the pass (on the iPhone or the Watch, as the cardholder chose).
    case added(WalletPassSnapshot)
    /// The cardholder cancelled.
    case cancelled
    /// It failed; the error has a stable code and a message to show.
    case failed(ProvisioClientError)
}

/// The in-app add: presents `PKAddPaymentPassViewController` for a card, answers PassKit's request
/// through a `ProvisioPayloadProvider` and returns how it ended.
///
/// PassKit's request is answered exactly once (the delegate's `async` request method returns once;
/// Core's `CompletionOnce` keeps the first answer): with the payload, or — on a provider error or
/// when `deadline` passes first — with an empty request, which makes PassKit fail the add; the
/// result then carries the real cause, not PassKit's generic error.
@MainActor
public final class InAppProvisioning {
    /// Apple gives the app 20 seconds; the deadline stays under it. Deadlines are in seconds
    /// (`TimeInterval`; `Duration` would need iOS 16).
    nonisolated public static let maximumDeadline: TimeInterval = 19

    public let provider: any ProvisioPayloadProvider
    /// How long the provider may take before PassKit is answered with a failure, in seconds.
    public let deadline: TimeInterval

    /// - Parameter deadline: in seconds; clamped to `maximumDeadline`.
    public init(provider: any ProvisioPayloadProvider, deadline: TimeInterval = 15) {
        self.provider = provider
        self.deadline = min(deadline, Self.maximumDeadline)
    }

    /// The PassKit configuration for `card`: the scheme asked for (ECC_V2 unless the issuer's
    /// Apple Pay set-up calls for RSA_V2), the network only when known.
    nonisolated public static func requestConfiguration(for card: WalletCard, encryptionScheme: EncryptionScheme = .eccV2)
        -> PKAddPaymentPassRequestConfiguration?
    {
        var configuration = card.requestConfiguration
        configuration.encryptionScheme = encryptionScheme
        return PassKitMapping.requestConfiguration(configuration)
    }

    /// Presents PassKit's add sheet from `presenter`, waits for it to finish and dismisses it.
    ///
    /// - Parameters:
    ///   - configuration: what PassKit is given; ``requestConfiguration(for:encryptionScheme:)``
    ///     when nil. Its `encryptionScheme` is the one Provisio seals for: PassKit hands over
    ///     Apple's certificates for the scheme of this configuration (Apple's
    ///     PKAddPaymentPassRequestConfiguration/encryptionScheme page: "the encryption scheme to be
    ///     used in this request").
    ///   - deviceType: the device the add can only go to, when the app knows it (see
    ///     ``WalletLibrary/deviceType(forAdding:issuerCards:)``); nil leaves it out. PassKit's
    ///     request delegate is not told which device the cardholder picked.
    public func add(
        _ card: WalletCard, configuration: PKAddPaymentPassRequestConfiguration? = nil, deviceType: DeviceType? = nil,
        presentingFrom presenter: UIViewController
    ) async -> AddCardResult {
        guard PKAddPaymentPassViewController.canAddPaymentPass() else {
            return .failed(
                ProvisioClientError(
                    .addUnavailable, "This app or device cannot add payment passes.",
                    userMessage: "This device can't add cards to Apple Wallet."))
        }
        guard let configuration = configuration ?? Self.requestConfiguration(for: card) else {
            return .failed(
                ProvisioClientError(
                    .addConfigurationInvalid, "PassKit refused the request configuration.",
                    userMessage: ProvisioClientError.tryAgain))
        }
        guard let scheme = PassKitMapping.encryptionScheme(configuration.encryptionScheme) else {
            return .failed(
                ProvisioClientError(
                    .unsupportedEncryptionScheme, "Provisio seals for ECC_V2 and RSA_V2 only.",
                    userMessage: ProvisioClientError.tryAgain))
        }
        let coordinator = AddPaymentPassCoordinator(
            card: card, scheme: scheme, deviceType: deviceType, provider: provider, deadline: deadline)
        guard let controller = PKAddPaymentPassViewController(requestConfiguration: configuration, delegate: coordinator) else {
            return .failed(
                ProvisioClientError(
                    .addUnavailable, "PKAddPaymentPassViewController could not be created (entitlement missing?).",
                    userMessage: "This device can't add cards to Apple Wallet."))
        }
        let result = await withCheckedContinuation { continuation in
            coordinator.onFinish { continuation.resume(returning: $0) }
            presenter.present(controller, animated: true)
        }
        withExtendedLifetime(coordinator) {}
        presenter.dismiss(animated: true)
        return result
    }
}

/// PassKit's delegate for one add. Sendable: its only mutable state is behind `AddState`'s lock.
final class AddPaymentPassCoordinator: NSObject, PKAddPaymentPassViewControllerDelegate, Sendable {
    let card: WalletCard
    /// The scheme of the configuration PassKit was given: Apple's certificates are for it.
    let scheme: EncryptionScheme
    let deviceType: DeviceType?
    let provider: any ProvisioPayloadProvider
    let deadline: TimeInterval
    private let state = AddState()

    init(
        card: WalletCard, scheme: EncryptionScheme = .eccV2, deviceType: DeviceType? = nil,
        provider: any ProvisioPayloadProvider, deadline: TimeInterval
    ) {
        self.card = card
        self.scheme = scheme
        self.deviceType = deviceType
        self.provider = provider
        self.deadline = deadline
    }

    func onFinish(_ deliver: @escaping @Sendable (AddCardResult) -> Void) {
        state.onFinish(deliver)
    }

    /// The `async` form of PassKit's request method (Swift imports both forms of the one
    /// Objective-C method; this one has the same shape in every SDK, whatever Sendable annotation
    /// the completion-handler form carries). Returns before `deadline` whatever the provider does.
    func addPaymentPassViewController(
        _ controller: PKAddPaymentPassViewController, generateRequestWithCertificateChain certificates: [Data], nonce: Data,
        nonceSignature: Data
    ) async -> PKAddPaymentPassRequest {
        let request = ApplePayPayloadRequest(
            certificates: certificates, nonce: nonce, nonceSignature: nonceSignature, encryptionScheme: scheme,
            deviceType: deviceType)
        let (card, provider, deadline) = (self.card, self.provider, self.deadline)
        let answer: PayloadAnswer = await withCheckedContinuation { continuation in
            let once = CompletionOnce<PayloadAnswer> { continuation.resume(returning: $0) }
            let work = Task {
                do {
                    let payload = try await provider.applePayPayload(
                        for: card, request: request, idempotencyKey: UUID().uuidString)
                    once.complete(.payload(payload))
                } catch {
                    once.complete(.failure(ProvisioClientError(payloadError: error)))
                }
            }
            Task {
                try? await Seconds.sleep(deadline)
                if once.complete(.failure(.deadlineExceeded(deadline))) { work.cancel() }
            }
        }
        if case .failure(let error) = answer { state.recordFailure(error) }
        return answer.passKitRequest()
    }

    func addPaymentPassViewController(
        _ controller: PKAddPaymentPassViewController, didFinishAdding pass: PKPaymentPass?, error: (any Error)?
    ) {
        if let pass {
            state.finish(.added(PassKitMapping.snapshot(pass)))
        } else if let failure = state.failure {
            state.finish(.failed(failure))
        } else if let error {
            state.finish(ProvisioClientError(passKitError: error).map(AddCardResult.failed) ?? .cancelled)
        } else {
            state.finish(
                .failed(
                    ProvisioClientError(
                        .passKitUnknown, "PassKit finished without a pass or an error.",
                        userMessage: ProvisioClientError.tryAgain)))
        }
    }
}

/// What the request handler gets: the payload, or the failure that ends the add.
enum PayloadAnswer: Sendable {
    case payload(ApplePayPayload)
    case failure(ProvisioClientError)

    /// A filled request, or an empty one (PassKit then fails the add).
    func passKitRequest() -> PKAddPaymentPassRequest {
        let request = PKAddPaymentPassRequest()
        if case .payload(let payload) = self {
            request.encryptedPassData = payload.encryptedPassData
            request.activationData = payload.activationData
            request.ephemeralPublicKey = payload.ephemeralPublicKey
            request.wrappedKey = payload.wrappedKey
        }
        return request
    }
}

/// The add's mutable state: the first failure and the single delivery of the result.
final class AddState: Sendable {
    private struct State {
        var failure: ProvisioClientError?
        var deliver: (@Sendable (AddCardResult) -> Void)?
        var result: AddCardResult?
        var delivered = false
    }

    private let state = Locked(State())

    var failure: ProvisioClientError? {
        state.withLock { $0.failure }
    }

    func recordFailure(_ error: ProvisioClientError) {
        state.withLock { state in
            if state.failure == nil { state.failure = error }
        }
    }

    func onFinish(_ deliver: @escaping @Sendable (AddCardResult) -> Void) {
        state.withLock { $0.deliver = deliver }
        flush()
    }

    func finish(_ result: AddCardResult) {
        state.withLock { state in
            if state.result == nil { state.result = result }
        }
        flush()
    }

    /// Delivers once both the result and the receiver are there, outside the lock.
    private func flush() {
        let delivery: (deliver: @Sendable (AddCardResult) -> Void, result: AddCardResult)? = state.withLock { state in
            guard !state.delivered, let deliver = state.deliver, let result = state.result else { return nil }
            state.delivered = true
            state.deliver = nil
            return (deliver, result)
        }
        guard let delivery else { return }
        delivery.deliver(delivery.result)
    }
}
