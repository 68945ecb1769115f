#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioClient
    import ProvisioCore
    import ProvisioKit
    import Testing

    /// Several signed-in accounts in one Wallet extension (what vendors' SDKs call several
    /// issuers / several tokens): two tenants of a real Provisio on loopback, each card added
    /// through the extension with its own account's credential and server.
    @Suite struct WalletExtensionAccountsTests {
        typealias Handler = WalletExtensionHandlerTests

        /// The card as the app would describe it to its extensions, read with the customer's own session.
        static func extensionCard(_ live: LiveProvisio, cardID: String, session: String, title: String, art: String)
            async throws -> WalletCard
        {
            let client = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession(session))
            let card = try #require(try await client.cards().first { $0.id == cardID })
            return WalletCard(
                id: card.id, primaryAccountIdentifier: card.primaryAccountIdentifier, title: title, last4: card.last4,
                cardholderName: card.cardholderName, network: card.network, artReference: art)
        }

        @Test func eachTenantsCardIsAddedWithItsOwnAccountAndSigningOutRemovesOnlyItsEntries() async throws {
            try await LiveProvisio.run { live in
                let second = try await live.addTenant("Second Bank", "cust_two", "5555555555554444")
                // The extension's own ServerURL leads nowhere: every call must use its account's server.
                let unreachable = URL(string: "http://127.0.0.1:9")!
                let (container, storage, sessions, handler) = try Handler.extensionParts(live, serverURL: unreachable)
                defer { try? FileManager.default.removeItem(at: container) }

                let first = try await Self.extensionCard(
                    live, cardID: live.cardID, session: live.mobileSession, title: "Kit Visa", art: "kit.png")
                let other = try await Self.extensionCard(
                    live, cardID: second.cardID, session: second.mobileSession, title: "Second Mastercard", art: "second.png")
                let kit = ExtensionAccount(issuerID: "kit-bank", consumerID: "cust_kit", cards: [first])
                let bank = ExtensionAccount(issuerID: "second-bank", consumerID: "cust_two", cards: [other])
                try storage.save(ExtensionConfiguration(accounts: [kit, bank], savedAt: Date()))
                try storage.saveArt(Handler.png(), named: "kit.png")
                try storage.saveArt(Handler.png(), named: "second.png")

                // Signed in to the first bank only: its cards are offered, and Wallet is still
                // asked to sign in to the second.
                let expiry = Date().addingTimeInterval(600)
                let results = Recorder()
                try ExtensionAuthorization(sessions: sessions) { results.add("\($0)") }
                    .authorize(
                        credential: live.mobileSession, accountIDs: [kit.id], expiresAt: expiry, serverURL: live.baseURL)
                #expect(await handler.entries(for: .phone).map(\.identifier) == ["phone:\(first.id)"])
                #expect(await handler.currentStatus().requiresAuthentication)

                // A second sign-in (another UI extension session) adds the second bank's account.
                try ExtensionAuthorization(sessions: sessions) { results.add("\($0)") }
                    .authorize(
                        credential: second.mobileSession, accountIDs: [bank.id], expiresAt: expiry, serverURL: live.baseURL)
                #expect(results.all == ["authorized", "authorized"])
                let stored = try #require(try sessions.load())
                #expect(stored.accounts.map(\.credential) == [live.mobileSession, second.mobileSession])
                #expect(!"\(stored)".contains(live.mobileSession) && !"\(stored)".contains(second.mobileSession))
                let status = await handler.currentStatus()
                #expect(!status.requiresAuthentication && status.passEntriesAvailable && status.remotePassEntriesAvailable)
                let identifiers = await handler.entries(for: .phone).map(\.identifier)
                #expect(identifiers == ["phone:\(first.id)", "phone:\(other.id)"])
                #expect(Set(identifiers).count == 2, "identifiers are unambiguous across accounts")

                // Wallet adds each tenant's card: each call carries that tenant's credential.
                let added = try await Handler.walletAdds(
                    "phone:\(other.id)", on: .phone, handler: handler, live: live,
                    primaryAccountIdentifier: other.primaryAccountIdentifier, apple: second.apple)
                #expect(added?.primaryAccountNumber.last4 == "4444", "\(handler.errors.all)")
                let addedFirst = try await Handler.walletAdds(
                    "phone:\(first.id)", on: .phone, handler: handler, live: live,
                    primaryAccountIdentifier: first.primaryAccountIdentifier)
                #expect(addedFirst?.primaryAccountNumber.last4 == "1111", "\(handler.errors.all)")
                #expect(handler.errors.all.isEmpty, "\(handler.errors.all)")
                #expect(await handler.entries(for: .watch).map(\.identifier) == ["watch:\(first.id)", "watch:\(other.id)"])

                // Signing the second bank out removes its entries only, and its cards can no longer be added.
                try sessions.signOut(bank.id)
                #expect(try sessions.load()?.accounts.map(\.accountIDs) == [[kit.id]])
                #expect(await handler.entries(for: .watch).map(\.identifier) == ["watch:\(first.id)"])
                let refused = try await Handler.walletAdds(
                    "watch:\(other.id)", on: .watch, handler: handler, live: live,
                    primaryAccountIdentifier: other.primaryAccountIdentifier, apple: second.apple)
                #expect(refused == nil)
                #expect(handler.errors.all == ["extension_authentication_required"])

                // The wrong credential for an account is refused by Provisio: the account's own
                // credential is what made the adds above succeed.
                try sessions.signIn(
                    StoredExtensionAccount(
                        accountIDs: [kit.id], credential: second.mobileSession, expiresAt: expiry, serverURL: live.baseURL))
                #expect(try sessions.load()?.accounts.count == 1, "signing in again replaces the account")
                let wrong = try await Handler.walletAdds(
                    "watch:\(first.id)", on: .watch, handler: handler, live: live,
                    primaryAccountIdentifier: first.primaryAccountIdentifier)
                #expect(wrong == nil)
                #expect(handler.errors.all.count == 2)

                try sessions.signOutAll()
                #expect(try sessions.load() == nil)
                #expect(await handler.entries(for: .watch).isEmpty)
            }
        }

        @Test func accountsAreAddedReplacedAndRemovedOneByOne() throws {
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let a = ExtensionAccount.ID(issuerID: "a", consumerID: "1")
            let b = ExtensionAccount.ID(issuerID: "b", consumerID: "2")
            let c = ExtensionAccount.ID(issuerID: "b", consumerID: "3")
            var stored = StoredExtensionSession()
            stored.signIn(StoredExtensionAccount(accountIDs: [a], credential: "tok-a", expiresAt: now + 60))
            stored.signIn(StoredExtensionAccount(accountIDs: [b, c], credential: "tok-bc", expiresAt: now + 30))
            #expect(stored.account(for: a, at: now)?.credential == "tok-a")
            #expect(stored.account(for: c, at: now)?.credential == "tok-bc")
            #expect(stored.session(at: now) == ExtensionSession(accountIDs: [a, b, c], expiresAt: now + 30))
            // Past the second account's expiry, only the first still counts.
            #expect(stored.session(at: now + 45) == ExtensionSession(accountIDs: [a], expiresAt: now + 60))
            #expect(stored.account(for: b, at: now + 45) == nil)

            // Signing in to b alone takes it from the shared sign-in; c keeps its credential.
            stored.signIn(StoredExtensionAccount(accountIDs: [b], credential: "tok-b", expiresAt: now + 90))
            #expect(stored.accounts.map(\.credential) == ["tok-a", "tok-bc", "tok-b"])
            #expect(stored.account(for: b, at: now)?.credential == "tok-b")
            #expect(stored.account(for: c, at: now)?.credential == "tok-bc")

            stored.signOut(c)
            #expect(stored.accounts.map(\.credential) == ["tok-a", "tok-b"])
            stored.signOut(a)
            stored.signOut(b)
            #expect(stored.isEmpty)
        }

        @Test func theSingleAccountFormOfEarlierVersionsStillReads() throws {
            // What KeychainSessionStore wrote before several accounts: JSONEncoder's defaults.
            let id = ExtensionAccount.ID(issuerID: "kit-bank", consumerID: "cust_kit")
            struct Legacy: Encodable {
                var session: ExtensionSession
                var credential: String
            }
            let expiry = Date(timeIntervalSince1970: 1_800_000_000)
            let legacy = try JSONEncoder().encode(
                Legacy(session: ExtensionSession(accountID: id, expiresAt: expiry), credential: "mob_secret"))
            let migrated = try StoredExtensionSession.decode(from: legacy)
            #expect(migrated.accounts == [StoredExtensionAccount(accountIDs: [id], credential: "mob_secret", expiresAt: expiry)])
            #expect(migrated.accounts.first?.serverURL == nil)

            // Written back in the current form, and read again unchanged.
            let current = try migrated.encoded()
            #expect(String(decoding: current, as: UTF8.self).contains("\"version\":2"))
            #expect(try StoredExtensionSession.decode(from: current) == migrated)
            #expect(throws: ProvisioError.self) { try StoredExtensionSession.decode(from: Data("{}".utf8)) }

            // A store holding the old form: signing in to another account keeps the migrated one.
            let store = MemorySessionStore()
            try store.save(migrated)
            let other = ExtensionAccount.ID(issuerID: "second-bank", consumerID: "cust_two")
            try store.signIn(StoredExtensionAccount(accountIDs: [other], credential: "mob_other", expiresAt: expiry))
            #expect(try store.load()?.accounts.map(\.credential) == ["mob_secret", "mob_other"])

            // The credential never shows in descriptions, debug descriptions or dumps.
            var dumped = ""
            dump(migrated, to: &dumped)
            for text in ["\(migrated)", String(reflecting: migrated), "\(migrated.accounts[0])", dumped] {
                #expect(!text.contains("mob_secret"), "\(text)")
                #expect(text.contains("redacted"), "\(text)")
            }
        }
    }
#endif
