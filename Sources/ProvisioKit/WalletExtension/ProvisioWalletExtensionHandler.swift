import Foundation
import ProvisioClient
import ProvisioCore

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif

/// The non-UI Wallet extension, complete: an issuer's principal class is an empty subclass.
///
/// Configuration comes from the extension's Info.plist, dictionary `ProvisioExtension` with
/// `AppGroup`, `KeychainAccessGroup` and `ServerURL` (or from `init(environment:)`). Every answer
/// is `ProvisioCore`'s: `status` reads only the cached configuration, the session and the pass
/// library (never the network) and answers within `statusDeadline` even when they are slow; the
/// entries are the cards of every signed-in account, leaving out cards already on that device and
/// cards whose add is in flight; `generate…` plans with `AddRequestPlanner`, calls Provisio with
/// the credential (and server) of the card's own account and answers Wallet exactly once, before
/// the deadline.
///
/// It overrides the `async` forms of PassKit's methods (Swift imports each Objective-C method
/// with a completion handler and as `async`; Wallet's calls reach either). Their shape is the same
/// in every SDK, while the completion handlers became `@Sendable` only in recent ones.
///
/// `@unchecked Sendable`: PassKit's base class is not marked Sendable, but this subclass adds only
/// an immutable `Result` of Sendable values, a `Locked` cache and a dispatch queue (both
/// thread-safe), and the base class keeps no state of its own.
open class ProvisioWalletExtensionHandler: PKIssuerProvisioningExtensionHandler, @unchecked Sendable {
    public static let infoDictionaryKey = "ProvisioExtension"
    private let environment: Result<WalletExtensionEnvironment, ProvisioError>
    /// The last status computed in full, answered when storage is too slow.
    private let lastStatus = Locked<ExtensionStatus?>(nil)
    /// Where the synchronous storage reads run: off Swift's cooperative pool, so that a read that
    /// blocks (a busy keychain, a stalled file system) cannot starve the deadline's timer. A
    /// custom concurrent queue gets its own threads even while others are blocked.
    private let storageQueue = DispatchQueue(label: "provisio.wallet-extension.storage", attributes: .concurrent)

    /// Reads the `ProvisioExtension` Info.plist dictionary (what Wallet instantiates).
    public override init() {
        self.environment = Result { try Self.environmentFromInfoDictionary(Bundle.main.infoDictionary ?? [:]) }
            .mapError { $0 as? ProvisioError ?? ProvisioError(.extensionNotConfigured, "\($0)") }
        super.init()
    }

    public init(environment: WalletExtensionEnvironment) {
        self.environment = .success(environment)
        super.init()
    }

    /// Called with every problem met while answering Wallet (log it; Wallet gets a safe answer).
    open func errorEncountered(_ error: ProvisioError) {}

    // MARK: - Status

    open override func status() async -> PKIssuerProvisioningExtensionStatus {
        await currentStatus()
    }

    /// Core's `ExtensionStatus` mapped to PassKit's.
    public func currentStatus() async -> PKIssuerProvisioningExtensionStatus {
        let status = await guardedStatus()
        let answer = PKIssuerProvisioningExtensionStatus()
        answer.requiresAuthentication = status.requiresAuthentication
        answer.passEntriesAvailable = status.passEntriesAvailable
        answer.remotePassEntriesAvailable = status.remotePassEntriesAvailable
        return answer
    }

    /// What `status` answers when it knows nothing: sign in, nothing to add (Wallet asks again
    /// later; it never offers a card the extension could not vouch for).
    public static let fallbackStatus = ExtensionStatus(
        requiresAuthentication: true, passEntriesAvailable: false, remotePassEntriesAvailable: false)

    /// The status within `statusDeadline`, delivered once to `completion` on whichever thread
    /// answers first: computed from storage when it answers in time, else the last status
    /// computed in full (this process's), else ``fallbackStatus`` (and
    /// `extension_status_deadline_exceeded` is reported). A late computation still refreshes
    /// that cache for the next call. The deadline's timer (`statusTimer`) does not need Swift's
    /// cooperative pool, so the answer is on time even while that pool is blocked.
    public func currentStatus(completion: @escaping @Sendable (ExtensionStatus) -> Void) {
        guard case .success(let environment) = environment else {
            reportConfigurationError()
            completion(Self.fallbackStatus)
            return
        }
        // Whichever path claims the answer first delivers it; the timer reports before it answers.
        let claimed = Locked(false)
        let claim: @Sendable () -> Bool = {
            claimed.withLock { claimed in
                defer { claimed = true }
                return !claimed
            }
        }
        environment.statusTimer(environment.statusDeadline) {
            guard claim() else { return }
            let known = self.lastStatus.value
            self.errorEncountered(
                ProvisioError(
                    .extensionStatusDeadlineExceeded,
                    "Storage did not answer within \(Seconds.text(environment.statusDeadline)); status answered from "
                        + (known == nil ? "the safe default." : "the last known status.")))
            completion(known ?? Self.fallbackStatus)
        }
        Task {
            let status = await self.computedStatus()
            if let status { self.lastStatus.withLock { $0 = status } }
            if claim() { completion(status ?? Self.fallbackStatus) }
        }
    }

    /// `currentStatus(completion:)`, awaited.
    func guardedStatus() async -> ExtensionStatus {
        await withCheckedContinuation { continuation in currentStatus { continuation.resume(returning: $0) } }
    }

    /// The status from storage, however long it takes; nil when the extension is not configured.
    private func computedStatus() async -> ExtensionStatus? {
        guard let state = await state() else { return nil }
        return ExtensionStatusResolver.status(
            configuration: state.configuration, session: state.signedIn, library: state.library, ledger: state.ledger,
            now: state.now)
    }

    // MARK: - Entries

    open override func passEntries() async -> [PKIssuerProvisioningExtensionPassEntry] {
        await entries(for: .phone)
    }

    open override func remotePassEntries() async -> [PKIssuerProvisioningExtensionPassEntry] {
        await entries(for: .watch)
    }

    /// The entries for `device`: the cards of every signed-in account (identifiers name the card,
    /// whose id is unique across the configuration's accounts). A card whose art cannot be read is
    /// left out (and reported).
    public func entries(for device: WalletDevice) async -> [PKIssuerProvisioningExtensionPassEntry] {
        guard let state = await state(), let configuration = state.configuration, case .success(let environment) = environment
        else { return [] }
        let selector = PassEntrySelector(
            configuration: configuration, library: state.library, ledger: state.ledger, now: state.now)
        let signedIn = state.signedIn
        return selector.entries(for: device).compactMap { entry in
            guard signedIn?.authorizes(entry.accountID, at: state.now) == true else { return nil }
            guard let art = art(entry.artReference, storage: environment.storage),
                let request = PassKitMapping.requestConfiguration(entry.request),
                let passEntry = PKIssuerProvisioningExtensionPaymentPassEntry(
                    identifier: entry.id, title: entry.title, art: art, addRequestConfiguration: request)
            else { return nil }
            return passEntry
        }
    }

    private func art(_ reference: String?, storage: any ExtensionStorage) -> CGImage? {
        guard let reference else {
            errorEncountered(ProvisioError(.extensionCardInvalidArtReference, "A card names no art in the App Group."))
            return nil
        }
        do {
            guard let data = try storage.art(named: reference) else {
                errorEncountered(ProvisioError(.cardArtNotPNG, "The card art '\(reference)' is not in the App Group."))
                return nil
            }
            // Wallet still shows art that misses Apple's guidelines; say so, and use it.
            for problem in CardArtCheck.problems(in: data) { errorEncountered(problem.error) }
            return UIImage(data: data)?.cgImage
        } catch {
            errorEncountered(Self.provisioError(error))
            return nil
        }
    }

    // MARK: - Generate

    /// Answers within `deadline` whatever Provisio does: with the request, or nil (Wallet then
    /// fails the add) when the payload cannot be had in time.
    ///
    /// Follows the configuration Wallet passes (Apple's
    /// generateAddPaymentPassRequestForPassEntryWithIdentifier(_:configuration:certificateChain:nonce:nonceSignature:completionHandler:)
    /// page): Provisio seals for its `encryptionScheme`, since Wallet's certificate chain is for
    /// that scheme, and its `primaryAccountIdentifier`, when set, must be the entry's card. The
    /// device is the entry's (`passEntries` are the iPhone's, `remotePassEntries` the Watch's, as
    /// Apple's pages for the two say) and is sent as `device_type`.
    open override func generateAddPaymentPassRequestForPassEntryWithIdentifier(
        _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration, certificateChain certificates: [Data],
        nonce: Data, nonceSignature: Data
    ) async -> PKAddPaymentPassRequest? {
        guard case .success(let environment) = environment else {
            reportConfigurationError()
            return nil
        }
        guard let scheme = PassKitMapping.encryptionScheme(configuration.encryptionScheme) else {
            errorEncountered(
                ProvisioError(.unsupportedEncryptionScheme, "Wallet asked for a scheme Provisio does not seal for."))
            return nil
        }
        let wallet = WalletRequest(scheme: scheme, primaryAccountIdentifier: configuration.primaryAccountIdentifier)
        let chain = (certificates: certificates, nonce: nonce, nonceSignature: nonceSignature)
        let answer: PayloadAnswer? = await withCheckedContinuation { continuation in
            let once = CompletionOnce<PayloadAnswer?> { continuation.resume(returning: $0) }
            let work = Task {
                once.complete(
                    await self.payload(
                        for: identifier, wallet: wallet, certificates: chain.certificates, nonce: chain.nonce,
                        nonceSignature: chain.nonceSignature))
            }
            Task {
                try? await Seconds.sleep(environment.deadline)
                if once.complete(nil) {
                    work.cancel()
                    self.errorEncountered(
                        ProvisioError(
                            .addDeadlineExceeded,
                            "No payload within \(Seconds.text(environment.deadline)); Wallet was told the add failed."))
                }
            }
        }
        return answer?.passKitRequest()
    }

    /// What `generate…` keeps of the configuration Wallet passed (a Sendable copy).
    struct WalletRequest: Sendable {
        var scheme: EncryptionScheme
        var primaryAccountIdentifier: String?
    }

    /// The payload for the entry, with its pending add recorded; nil (reported) when it cannot be had.
    func payload(
        for identifier: String, wallet: WalletRequest, certificates: [Data], nonce: Data, nonceSignature: Data
    ) async -> PayloadAnswer? {
        guard let state = await state(), case .success(let environment) = environment else { return nil }
        do {
            let plan = try AddRequestPlanner.plan(
                entryIdentifier: identifier, configuration: state.configuration, session: state.signedIn,
                library: state.library, now: state.now)
            // Wallet passes back the entry's configuration; another card's would add the wrong pass.
            if let asked = wallet.primaryAccountIdentifier, asked != plan.card.primaryAccountIdentifier {
                throw ProvisioError(
                    .addConfigurationInvalid, "Wallet's configuration names another card than the entry '\(identifier)'.")
            }
            // The card's own account: its credential, at its server.
            guard let account = state.session?.account(for: plan.accountID, at: state.now) else {
                throw ProvisioError(.extensionAuthenticationRequired, "The cardholder must sign in again before adding a card.")
            }
            let request = ApplePayPayloadRequest(
                certificates: certificates, nonce: nonce, nonceSignature: nonceSignature, encryptionScheme: wallet.scheme,
                deviceType: DeviceType(rawValue: plan.device.rawValue))
            let payload = try await environment.payloadProvider(account).applePayPayload(
                for: plan.card, request: request, idempotencyKey: UUID().uuidString)
            try environment.storage.save(state.ledger.recording(plan.pendingAdd(startedAt: environment.now())))
            return .payload(payload)
        } catch {
            errorEncountered(Self.provisioError(error))
            return nil
        }
    }

    // MARK: - State

    struct State: Sendable {
        var configuration: ExtensionConfiguration?
        var session: StoredExtensionSession?
        var library: PassLibrarySnapshot
        var ledger: PendingAddLedger
        var now: Date

        /// Every account signed in and valid now, as one Core session.
        var signedIn: ExtensionSession? { session?.session(at: now) }
    }

    /// Everything an answer needs, read once; unreadable parts are reported and treated as absent.
    func state() async -> State? {
        guard case .success(let environment) = environment else {
            reportConfigurationError()
            return nil
        }
        let now = environment.now()
        let library = await environment.library()
        return await withCheckedContinuation { continuation in
            storageQueue.async { continuation.resume(returning: self.storedState(environment, library: library, now: now)) }
        }
    }

    /// The synchronous part of `state()`: the App Group files and the keychain.
    private func storedState(_ environment: WalletExtensionEnvironment, library: PassLibrarySnapshot, now: Date) -> State {
        let configuration = reading { try environment.storage.configuration() } ?? nil
        let session = reading { try environment.sessions.load() } ?? nil
        var ledger = reading { try environment.storage.ledger() } ?? PendingAddLedger()
        let reconciled = ledger.reconciled(with: library, issuerCards: configuration?.cardIdentities ?? [], now: now)
        if reconciled != ledger {
            ledger = reconciled
            _ = reading { try environment.storage.save(reconciled) }
        }
        return State(configuration: configuration, session: session, library: library, ledger: ledger, now: now)
    }

    private func reading<T>(_ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            errorEncountered(Self.provisioError(error))
            return nil
        }
    }

    private func reportConfigurationError() {
        if case .failure(let error) = environment { errorEncountered(error) }
    }

    static func provisioError(_ error: any Error) -> ProvisioError {
        switch error {
        case let error as ProvisioError: error
        case let error as ProvisioClientError: ProvisioError(error.code, error.message)
        default: ProvisioError(.payloadProviderFailed, "The payload could not be fetched (\(type(of: error))).")
        }
    }

    /// The Info.plist route: App Group storage, keychain session, Provisio's mobile API.
    static func environmentFromInfoDictionary(_ info: [String: Any]) throws -> WalletExtensionEnvironment {
        guard let settings = info[infoDictionaryKey] as? [String: Any], let appGroup = settings["AppGroup"] as? String,
            let keychainGroup = settings["KeychainAccessGroup"] as? String,
            let server = (settings["ServerURL"] as? String).flatMap(URL.init(string:))
        else {
            throw ProvisioError(
                .extensionNotConfigured,
                "The extension's Info.plist needs a \(infoDictionaryKey) dictionary with AppGroup, KeychainAccessGroup and ServerURL."
            )
        }
        #if canImport(Darwin) && canImport(Security)
            return WalletExtensionEnvironment(
                storage: try AppGroupStorage(appGroupIdentifier: appGroup),
                sessions: KeychainSessionStore(accessGroup: keychainGroup), payloadProvider: .provisio(baseURL: server))
        #else
            _ = (appGroup, keychainGroup, server)
            throw ProvisioError(
                .extensionNotConfigured, "App Groups and the keychain exist only on Apple platforms; use init(environment:).")
        #endif
    }
}
