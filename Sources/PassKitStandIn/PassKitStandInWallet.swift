import Foundation

// MARK: - Not part of Apple's API
//
// Apple's Wallet app calling an issuer's non-UI extension, with Apple's limits, so that an
// extension that answers too late fails here as it would on a cardholder's phone.

/// Apple's limits on the non-UI extension's answers (not part of Apple's API).
///
/// - `status`: 100 ms, past which Wallet does not show the issuer's app at all (the figure the
///   project's docs and ProvisioKit's `statusDeadline` hold to).
/// - `entries` (`passEntries` and `remotePassEntries`) and `request`
///   (`generateAddPaymentPassRequestForPassEntryWithIdentifier`): 20 s, past which the add fails.
///   PKIssuerProvisioningExtensionHandler.h says it of the request: the completion must come
///   within 20 seconds or an error is shown, and a later call of the completion is ignored.
public struct PassKitStandInWalletLimits: Sendable, Hashable {
    public var status: Duration
    public var entries: Duration
    public var request: Duration

    public init(status: Duration, entries: Duration, request: Duration) {
        self.status = status
        self.entries = entries
        self.request = request
    }

    /// Apple's.
    public static let apple = PassKitStandInWalletLimits(
        status: .milliseconds(100), entries: .seconds(20), request: .seconds(20))
}

/// What Wallet makes of the extension's `status` (not part of Apple's API).
public enum PassKitStandInExtensionVisibility: Sendable, Hashable {
    /// Answered in time: Wallet shows the issuer's app with these flags.
    case shown(requiresAuthentication: Bool, passEntriesAvailable: Bool, remotePassEntriesAvailable: Bool)
    /// Answered after the limit (or never): Wallet does not show the issuer's app.
    case notShown

    public var isShown: Bool { self != .notShown }
}

/// One entry as Wallet lists it (not part of Apple's API): a copy of what the extension gave.
public struct PassKitStandInWalletEntry: Sendable, Hashable {
    public var identifier: String
    public var title: String
    public var artWidth: Int
    public var artHeight: Int
    /// The entry's `addRequestConfiguration`; nil for an entry that is not a payment pass entry.
    public var request: PassKitStandInAddRequest?
    /// From `remotePassEntries` (the Watch), not `passEntries` (the iPhone).
    public var isRemote: Bool
}

/// Why Wallet failed an add through the extension (not part of Apple's API). Stable codes.
public struct PassKitStandInWalletFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: String
    public let message: String

    /// The entries were not answered within `PassKitStandInWalletLimits.entries`.
    public static let entriesTooLate = "wallet_entries_deadline_exceeded"
    /// The request was not answered within `PassKitStandInWalletLimits.request`.
    public static let requestTooLate = "wallet_request_deadline_exceeded"
    /// The extension answered the request with nil or without encrypted pass data.
    public static let noRequest = "wallet_request_empty"
    /// The entry has no add request configuration Wallet could use.
    public static let entryUnusable = "wallet_entry_unusable"

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}

/// Apple's Wallet app driving an issuer's non-UI extension (not part of Apple's API): it calls the
/// completion-handler forms, as Wallet does, holds each answer to `limits`, ignores an answer that
/// comes later, and adds the chosen entry through the device.
///
/// Time is the injected `clock`'s, so a test decides when a limit passes (no 20 s sleeps).
public struct PassKitStandInWallet: Sendable {
    public let device: any PassKitStandInDevice
    public let limits: PassKitStandInWalletLimits
    public let clock: any Clock<Duration>
    /// The issuer app the extension belongs to (`TEAMID.bundle.id`). When given, Wallet calls
    /// the extension as that app on `device`: a `PKPassLibrary` the extension creates reads this
    /// device and shows only the passes that app sees (a card product's passes only in its
    /// associated apps). Nil: the extension runs in whatever environment the caller installed.
    public let applicationIdentifier: String?

    public init(
        device: any PassKitStandInDevice, limits: PassKitStandInWalletLimits = .apple,
        clock: any Clock<Duration> = ContinuousClock(), applicationIdentifier: String? = nil
    ) {
        self.device = device
        self.limits = limits
        self.clock = clock
        self.applicationIdentifier = applicationIdentifier
    }

    /// Asks `status`; an answer after `limits.status` hides the issuer's app.
    public func visibility(of handler: PKIssuerProvisioningExtensionHandler) async -> PassKitStandInExtensionVisibility {
        let call = StandInHandoff(value: handler)
        let answer = await firstAnswer(within: limits.status) {
            (done: @escaping @Sendable (PassKitStandInExtensionVisibility) -> Void) in
            call.value.status { status in
                done(
                    .shown(
                        requiresAuthentication: status.requiresAuthentication,
                        passEntriesAvailable: status.passEntriesAvailable,
                        remotePassEntriesAvailable: status.remotePassEntriesAvailable))
            }
        }
        return answer ?? .notShown
    }

    /// Asks `passEntries` (`remote == false`) or `remotePassEntries`; throws
    /// `PassKitStandInWalletFailure.entriesTooLate` after `limits.entries`.
    public func entries(of handler: PKIssuerProvisioningExtensionHandler, remote: Bool) async throws(PassKitStandInWalletFailure)
        -> [PassKitStandInWalletEntry]
    {
        let call = StandInHandoff(value: handler)
        let answer = await firstAnswer(within: limits.entries) {
            (done: @escaping @Sendable ([PassKitStandInWalletEntry]) -> Void) in
            let deliver: @Sendable ([PKIssuerProvisioningExtensionPassEntry]) -> Void = { entries in
                done(entries.map { Self.entry($0, remote: remote) })
            }
            if remote { call.value.remotePassEntries(completion: deliver) } else { call.value.passEntries(completion: deliver) }
        }
        guard let answer else {
            throw PassKitStandInWalletFailure(
                PassKitStandInWalletFailure.entriesTooLate,
                "\(remote ? "remotePassEntries" : "passEntries") did not answer within \(limits.entries).")
        }
        return answer
    }

    /// The cardholder picks `entry`: Wallet begins the add on the entry's device, hands the
    /// extension the entry's configuration with the session's certificates, nonce and signature,
    /// and gives the answer to Apple. Throws `PassKitStandInWalletFailure` when the extension is
    /// late or gives nothing, and the device's errors as they are.
    public func add(_ entry: PassKitStandInWalletEntry, through handler: PKIssuerProvisioningExtensionHandler) async throws
        -> PassKitStandInPass
    {
        guard let request = entry.request, PKAddPaymentPassRequestConfiguration(standInRequest: request) != nil else {
            throw PassKitStandInWalletFailure(
                PassKitStandInWalletFailure.entryUnusable, "The entry has no payment pass configuration.")
        }
        let session = try await device.beginExtensionAdd(request, remote: entry.isRemote)
        let call = StandInHandoff(value: handler)
        let identifier = entry.identifier
        let answer = await firstAnswer(within: limits.request) {
            (done: @escaping @Sendable (PassKitStandInAddResponse?) -> Void) in
            // A fresh copy of the entry's configuration, as Wallet's process hands it over.
            guard let configuration = PKAddPaymentPassRequestConfiguration(standInRequest: request) else { return done(nil) }
            call.value.generateAddPaymentPassRequestForPassEntryWithIdentifier(
                identifier, configuration: configuration, certificateChain: session.certificates, nonce: session.nonce,
                nonceSignature: session.nonceSignature
            ) { request in
                done(request?.standInResponse)
            }
        }
        guard let answer else {
            throw PassKitStandInWalletFailure(
                PassKitStandInWalletFailure.requestTooLate,
                "generateAddPaymentPassRequest did not answer within \(limits.request).")
        }
        guard let response = answer, !response.isEmpty else {
            throw PassKitStandInWalletFailure(PassKitStandInWalletFailure.noRequest, "The extension gave no request.")
        }
        return try await device.finishAdd(session, response: response)
    }

    /// The extension's first answer if it comes within `limit` on `clock`, else nil; whatever
    /// comes later is dropped (the completion is no longer valid).
    private func firstAnswer<Answer: Sendable>(
        within limit: Duration, _ ask: (@escaping @Sendable (Answer) -> Void) -> Void
    ) async -> Answer? {
        let (answers, gate) = AsyncStream<Answer?>.makeStream(bufferingPolicy: .bufferingOldest(1))
        let clock = self.clock
        let timer = Task {
            // Cancelled once the answer is in: no late nil after it.
            guard (try? await clock.sleep(for: limit)) != nil else { return }
            gate.yield(nil)
            gate.finish()
        }
        defer { timer.cancel() }
        let deliver: @Sendable (Answer) -> Void = { answer in
            gate.yield(answer)
            gate.finish()
        }
        if let applicationIdentifier {
            // Task locals reach the tasks the extension starts for its completion handlers too.
            PassKitStandInEnvironment.$device.withValue(device) {
                PassKitStandInEnvironment.$applicationIdentifier.withValue(applicationIdentifier) { ask(deliver) }
            }
        } else {
            ask(deliver)
        }
        var first = answers.makeAsyncIterator()
        return await first.next() ?? nil
    }

    private static func entry(_ entry: PKIssuerProvisioningExtensionPassEntry, remote: Bool) -> PassKitStandInWalletEntry {
        PassKitStandInWalletEntry(
            identifier: entry.identifier, title: entry.title, artWidth: entry.art.width, artHeight: entry.art.height,
            request: (entry as? PKIssuerProvisioningExtensionPaymentPassEntry)?.addRequestConfiguration.standInRequest,
            isRemote: remote)
    }
}
