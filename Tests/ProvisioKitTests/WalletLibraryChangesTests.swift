#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioClient
    import ProvisioCore
    import ProvisioKit
    import Testing

    /// Card status follows Wallet: each PassKit change notification brings a fresh snapshot.
    @Suite struct WalletLibraryChangesTests {
        /// PassKit's name is a `PKPassLibraryNotificationName`; NotificationCenter takes its raw value.
        static let didChange = Notification.Name(PKPassLibraryNotificationName.PKPassLibraryDidChange.rawValue)

        @Test func statusFollowsPassKitsChangeNotifications() async throws {
            try await LiveProvisio.run { live in
                let device = await InAppProvisioningTests.device(live)
                try await PassKitStandInEnvironment.$device.withValue(device) {
                    let center = NotificationCenter()
                    let library = await WalletLibrary(isWatchPaired: { true })
                    let client = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession(live.mobileSession))
                    let card = try #require(try await client.cards().first { $0.id == live.cardID })
                    var changes = await library.changes(notificationCenter: center).makeAsyncIterator()

                    let first = try #require(await changes.next())
                    let resolver = { (snapshot: PassLibrarySnapshot) in
                        WalletCardStatusResolver(library: snapshot, issuerCards: [card.identity]).status(
                            of: card.identity, on: .phone)
                    }
                    #expect(resolver(first) == .notAdded)

                    let result = await InAppProvisioningTests.add(
                        card, provider: ProvisioClientPayloadProvider(client: client))
                    guard case .added = result else { throw SetupError("the add failed: \(result)") }
                    center.post(name: Self.didChange, object: nil)
                    let afterAdd = try #require(await changes.next())
                    #expect(resolver(afterAdd) == .activated)

                    // The issuer suspends the token at the network; Wallet tells the app.
                    let ref = try #require(await live.network.allTokens().first?.networkTokenRef)
                    _ = try await live.network.applyIssuerAction(.suspend, networkTokenRef: ref)
                    await device.refresh()
                    center.post(name: Self.didChange, object: nil)
                    let afterSuspend = try #require(await changes.next())
                    #expect(resolver(afterSuspend) == .suspended)
                }
            }
        }
    }
#endif
