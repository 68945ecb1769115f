import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox

/// Scenario 3, the Wallet-extension flow: Wallet asks the issuer's extension for its status,
/// the cardholder signs in through the UI extension, Wallet lists the cards it may add on the
/// iPhone and the Watch, and adds one. Every decision is `ProvisioCore`'s (what ProvisioKit's
/// extension classes call); the demo plays the App Group file, the shared keychain and Wallet.
extension DemoScenarios {
    func walletExtension() async throws {
        let everyday = try await world.createCard(
            customer: "erin", pan: "4012888888881881", name: "Erin Extension", title: "Everyday Visa")
        _ = try await world.createCard(
            customer: "erin", pan: "5105105105105100", name: "Erin Extension", title: "Travel Mastercard")
        let appSession = try await world.mobileSession(customer: "erin")
        let (_, added) = try await world.add(card: everyday, on: .phone, mobileToken: appSession)
        guard case .success = added else {
            await transcript.fail("the in-app add of the Everyday card failed: \(Self.describe(added))")
            return
        }
        await transcript.pass("erin has two cards; Everyday Visa is already on her iPhone (added in the app)")

        // The app writes the extension's configuration into its App Group container.
        let appGroup = NSTemporaryDirectory() + "provisio-demo-appgroup-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: appGroup, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: appGroup) }
        let cards = try await world.api.client(appSession).listMobileCards().ok.body.json.data.map(Self.extensionCard)
        let account = ExtensionAccount(issuerID: "demo-bank", consumerID: world.customer("erin"), cards: cards)
        let file = appGroup + "/provisio-extension.json"
        try ExtensionConfiguration(accounts: [account], savedAt: Date()).encoded().write(to: URL(fileURLWithPath: file))
        let configuration = try ExtensionConfiguration.decode(from: Data(contentsOf: URL(fileURLWithPath: file)))
        await transcript.check(
            configuration.accounts.first?.cards.count == 2,
            "the app wrote both cards to its App Group; the extension read them back")

        // Wallet opens "Add card from…": status answers from the cache, never the network.
        var library = try await DemoPassLibrary.snapshot(sandbox)
        let signedOut = ExtensionStatusResolver.status(configuration: configuration, session: nil, library: library, now: Date())
        await transcript.check(
            signedOut.requiresAuthentication && signedOut.passEntriesAvailable && signedOut.remotePassEntriesAvailable,
            "status without a session: requires authentication, cards available for iPhone and Watch")

        // The UI extension signs the cardholder in; its completion runs exactly once.
        let (delivered, deliver) = AsyncStream<AuthorizationOutcome>.makeStream()
        let completion = CompletionOnce<AuthorizationOutcome> { deliver.yield($0) }
        let extensionToken = try await world.mobileSession(customer: "erin")
        completion.complete(extensionToken.isEmpty ? .canceled : .authorized)
        completion.complete(.canceled)
        deliver.finish()
        var outcomes: [AuthorizationOutcome] = []
        for await outcome in delivered { outcomes.append(outcome) }
        let session = ExtensionSession(accountID: account.id, expiresAt: Date().addingTimeInterval(15 * 60))
        await transcript.check(
            outcomes == [.authorized], "UI extension: signed in, completion called once with .authorized")
        let signedIn = ExtensionStatusResolver.status(
            configuration: configuration, session: session, library: library, now: Date())
        await transcript.check(!signedIn.requiresAuthentication, "status with the session: no authentication needed")

        // Wallet asks for the entries of each device.
        var selector = PassEntrySelector(configuration: configuration, library: library, now: Date())
        let phoneTitles = selector.passEntries.map(\.title)
        let watchTitles = selector.remotePassEntries.map(\.title)
        await transcript.check(
            phoneTitles == ["Travel Mastercard"],
            "iPhone entries: \(phoneTitles.joined(separator: ", ")) (Everyday is already there)")
        await transcript.check(
            watchTitles == ["Everyday Visa", "Travel Mastercard"], "Watch entries: \(watchTitles.joined(separator: ", "))")

        // The cardholder picks Travel for the iPhone: generate the add request.
        guard let entry = selector.passEntries.first else { return }
        let plan = try AddRequestPlanner.plan(
            entryIdentifier: entry.id, configuration: configuration, session: session, library: library, now: Date())
        var ledger = PendingAddLedger().recording(plan.pendingAdd(startedAt: Date()))
        let pendingSelector = PassEntrySelector(configuration: configuration, library: library, ledger: ledger, now: Date())
        await transcript.check(
            pendingSelector.passEntries.isEmpty, "while the add runs, Travel is hidden from the iPhone entries")
        let (_, result) = try await world.add(
            cardID: plan.card.id, primaryAccountIdentifier: plan.card.primaryAccountIdentifier,
            on: DemoPassLibrary.kind(plan.device), mobileToken: extensionToken)
        guard case .success(let outcome) = result else {
            await transcript.fail("the extension's add failed: \(Self.describe(result))")
            return
        }
        await transcript.check(
            outcome.pass?.activationState == .activated,
            "generate: \(entry.request.encryptionScheme.rawValue) request, Provisio's payload, Apple and the network → pass activated"
        )

        library = try await DemoPassLibrary.snapshot(sandbox)
        ledger = ledger.reconciled(with: library, issuerCards: configuration.cardIdentities, now: Date())
        selector = PassEntrySelector(configuration: configuration, library: library, ledger: ledger, now: Date())
        let after = ExtensionStatusResolver.status(
            configuration: configuration, session: session, library: library, ledger: ledger, now: Date())
        await transcript.check(
            ledger.records.isEmpty && selector.passEntries.isEmpty && !after.passEntriesAvailable
                && after.remotePassEntriesAvailable,
            "the pass appeared: nothing left to add on the iPhone, both cards still offered for the Watch")
        let token = try await world.tokens(cardID: plan.card.id).first
        await transcript.check(token?.state == .active, "Provisio's token is active")
    }

    /// A card of `GET /v1/mobile/cards` as the app stores it for its extension.
    static func extensionCard(_ card: Components.Schemas.MobileCard) -> WalletCard {
        WalletCard(
            id: card.id, primaryAccountIdentifier: card.primaryAccountIdentifier,
            title: card.productTitle ?? "Card •••• \(card.last4)", last4: card.last4, cardholderName: card.cardholderName,
            network: PaymentNetwork(rawValue: card.network.rawValue), artReference: "card-\(card.id).png")
    }
}
