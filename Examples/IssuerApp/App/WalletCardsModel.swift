import Foundation
import Observation
import ProvisioClient
import ProvisioCore
import ProvisioKit

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif
#if canImport(UIKit)
    import UIKit
#endif

/// The example app's state and flows, free of SwiftUI so it also compiles on Linux:
///
/// 1. ``load()``: a mobile session from the issuer's backend, the cards from
///    `ProvisioMobileClient.cards()`, the Add-button decision for each from
///    `WalletLibrary.addDecision(for:issuerCards:)`, and the extension configuration + card art
///    written into the App Group for the Wallet extensions.
/// 2. ``observeWallet()``: follows `WalletLibrary.changes()` so buttons and statuses follow Wallet.
/// 3. ``add(_:presentingFrom:)``: the in-app add through `InAppProvisioning`.
/// 4. ``handleOpenURL(_:)``: Wallet's verification link, through `InAppVerification`.
@MainActor
@Observable
final class WalletCardsModel {
    /// One card on screen.
    struct Row: Identifiable, Hashable {
        let card: WalletCard
        /// The card's art for the list (Provisio's `card_art_url`).
        let artURL: URL?
        var decision: AddCardDecision

        var id: String { card.id }
        /// "Add to Apple Wallet" is shown only when the card can go to the iPhone or the Watch.
        var showsAddButton: Bool { decision.showsAddButton }
        /// Why the button is hidden, or where the card can still go; nil when there is nothing to say.
        var walletNote: String? { WalletNote.text(for: decision) }
    }

    enum Phase: Hashable {
        case idle, loading, ready
        case failed(message: String)
    }

    /// Something to tell the cardholder after an add or a verification.
    struct Notice: Identifiable, Hashable {
        let id = UUID()
        var title: String
        var message: String
    }

    private(set) var rows: [Row] = []
    private(set) var phase: Phase = .idle
    /// Shown as an alert, then cleared by the view.
    var notice: Notice?
    /// Whether an add or a verification is running (the view disables the buttons).
    private(set) var isBusy = false

    private let settings: IssuerAppSettings
    private let backend: any IssuerBackend
    private let library: WalletLibrary
    private let publisher: WalletExtensionPublisher?
    private let authenticateCardholder: @MainActor () async -> Bool
    @ObservationIgnored private var session: IssuerMobileSession?

    /// - Parameters:
    ///   - storage: the App Group storage, nil when the App Group is not available (reported once;
    ///     the in-app flows work, the Wallet extensions will offer nothing).
    ///   - authenticateCardholder: asks the cardholder to prove who they are before a verification
    ///     (Face ID, passcode, the app's own login).
    init(
        settings: IssuerAppSettings, backend: any IssuerBackend, library: WalletLibrary, storage: (any ExtensionStorage)?,
        fallbackArt: Data? = nil, authenticateCardholder: @escaping @MainActor () async -> Bool
    ) {
        self.settings = settings
        self.backend = backend
        self.library = library
        self.publisher = storage.map { WalletExtensionPublisher(storage: $0, fallbackArt: fallbackArt) }
        self.authenticateCardholder = authenticateCardholder
    }

    // MARK: - Cards

    /// Loads the cardholder's cards and publishes them to the Wallet extensions.
    func load() async {
        phase = .loading
        do {
            let session = try await validSession()
            let cards = try await client(session).cards()
            rows = cards.map { card in
                Row(
                    card: card, artURL: card.cardArtURL.flatMap(URL.init(string:)),
                    decision: library.addDecision(for: card, issuerCards: cards))
            }
            phase = .ready
            if let publisher {
                for problem in await publisher.publish(cards, account: session.account) { ExampleLog.error(problem) }
            }
        } catch {
            ExampleLog.error("Loading cards failed: \(error)")
            phase = .failed(message: Self.userMessage(for: error))
        }
    }

    /// Re-decides every button from the pass library as it is now.
    func refreshDecisions() {
        let cards = rows.map(\.card)
        for index in rows.indices {
            rows[index].decision = library.addDecision(for: rows[index].card, issuerCards: cards)
        }
    }

    /// Follows Wallet: every change to the iPhone's or the Watch's passes re-decides the buttons.
    /// Run it in the view's `.task`; it ends when that task is cancelled.
    func observeWallet() async {
        for await _ in library.changes() {
            refreshDecisions()
        }
    }

    /// The card's status on `device` ("In Apple Wallet", "Suspended", …) for the detail line.
    func status(of row: Row, on device: WalletDevice) -> WalletCardStatus {
        library.status(of: row.card, on: device, issuerCards: rows.map(\.card))
    }

    // MARK: - In-app add

    /// Presents PassKit's add sheet for the card and reports how it ended.
    func add(_ row: Row, presentingFrom presenter: UIViewController) async {
        guard !isBusy else { return }
        isBusy = true
        defer { isBusy = false }
        let provider: ProvisioClientPayloadProvider
        do {
            provider = ProvisioClientPayloadProvider(client: client(try await validSession()))
        } catch {
            notice = Notice(title: "Couldn't add the card", message: Self.userMessage(for: error))
            return
        }
        switch await InAppProvisioning(provider: provider).add(row.card, presentingFrom: presenter) {
        case .added(let pass):
            let place = pass.device == .watch ? "your Apple Watch" : "this iPhone"
            notice = Notice(title: "Added to Apple Wallet", message: "Your card ending in \(row.card.last4) is on \(place).")
        case .cancelled:
            break
        case .failed(let error):
            ExampleLog.error("In-app add failed: \(error) request_id=\(error.requestID ?? "-")")
            notice = Notice(title: "Couldn't add the card", message: error.userMessage)
        }
        refreshDecisions()
    }

    // MARK: - In-app verification

    /// Handles a URL the app was opened with; returns false when it is not Wallet's verification link.
    @discardableResult
    func handleOpenURL(_ url: URL) async -> Bool {
        guard (try? WalletDeepLink(url: url)) != nil else { return false }
        guard !isBusy else { return true }
        isBusy = true
        defer { isBusy = false }
        guard await authenticateCardholder() else {
            notice = Notice(title: "Verification cancelled", message: "Sign in to verify your card.")
            return true
        }
        let backend = self.backend
        let verification = InAppVerification(
            library: library, provider: ClosureActivationDataProvider { pass in try await backend.activationData(for: pass) })
        switch await verification.verify(url) {
        case .activated, .alreadyActive:
            notice = Notice(title: "Card verified", message: "Your card is ready to use with Apple Pay.")
        case .failed(let error):
            ExampleLog.error("In-app verification failed: \(error)")
            notice = Notice(title: "Couldn't verify the card", message: error.userMessage)
        }
        refreshDecisions()
        return true
    }

    // MARK: - Sign-out

    /// Forgets the session and withdraws the cards from the Wallet extensions.
    func signOut() {
        session = nil
        rows = []
        phase = .idle
        do {
            try publisher?.clear()
            try settings.makeSessionStore().remove()
        } catch {
            ExampleLog.error("Sign-out cleanup failed: \(error)")
        }
    }

    // MARK: - Plumbing

    /// The current mobile session, renewed through the backend a minute before it expires.
    private func validSession() async throws -> IssuerMobileSession {
        if let session, session.expiresAt.timeIntervalSinceNow > 60 { return session }
        let fresh = try await backend.currentMobileSession()
        session = fresh
        return fresh
    }

    private func client(_ session: IssuerMobileSession) -> ProvisioMobileClient {
        ProvisioMobileClient(baseURL: settings.serverURL, credential: .mobileSession(session.token))
    }

    static func userMessage(for error: any Error) -> String {
        switch error {
        case IssuerBackendError.notImplemented(let what):
            "The example's IssuerBackend is a placeholder — implement \(what)"
        case IssuerBackendError.signedOut, IssuerBackendError.invalidCredentials:
            "Please sign in again."
        case let error as ProvisioClientError where error.code == .tokenExpired || error.code == .invalidCredentials:
            "Your session has expired. Please sign in again."
        case let error as ProvisioClientError where !error.isServerError:
            "We couldn't reach your bank. Check your connection and try again."
        default:
            "Something went wrong. Please try again later."
        }
    }
}

/// The line under a card: why "Add to Apple Wallet" is hidden, or where the card still can go.
enum WalletNote {
    static func text(for decision: AddCardDecision) -> String? {
        let (phone, watch) = (decision.phone, decision.watch)
        switch (phone.canAdd, watch.canAdd) {
        case (true, true):
            return nil
        case (true, false) where watch.reason == .noPairedWatch:
            return nil
        case (true, false):
            return "\(text(for: watch.reason, on: .watch)) You can still add it to this iPhone."
        case (false, true):
            return "\(text(for: phone.reason, on: .phone)) You can still add it to your Apple Watch."
        case (false, false):
            if watch.reason == .noPairedWatch || watch.reason == phone.reason { return text(for: phone.reason, on: .phone) }
            return "\(text(for: phone.reason, on: .phone)) \(text(for: watch.reason, on: .watch))"
        }
    }

    /// One reason, in the cardholder's words.
    static func text(for reason: AddCardReason, on device: WalletDevice) -> String {
        let place = device == .watch ? "on your Apple Watch" : "on this iPhone"
        switch reason {
        case .notOnDevice, .onlyDeactivatedPass, .ambiguousLastFour: return "Not in Apple Wallet \(place) yet."
        case .unsupportedDevice: return "This iPhone can't add cards to Apple Wallet."
        case .noPairedWatch: return "No Apple Watch is paired."
        case .alreadyOnThisDevice: return "In Apple Wallet on this iPhone."
        case .alreadyOnWatch: return "In Apple Wallet on your Apple Watch."
        case .activating: return "Being activated \(place)."
        case .requiresActivation: return "Waiting for verification \(place): open the card in Wallet and choose to verify."
        case .suspended: return "Suspended \(place). Contact us to resume it."
        case .unknownPassState: return "Apple Wallet \(place) reports a state we can't read."
        }
    }
}
