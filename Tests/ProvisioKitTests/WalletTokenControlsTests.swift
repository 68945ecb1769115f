#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioClient
    import ProvisioCore
    import ProvisioKit
    import ProvisioSandbox
    import Testing

    /// The cardholder's own controls from the app, against a live Provisio whose token changes
    /// reach the sandbox network through its connector: their cards on every device, a lost
    /// phone suspended and found again, a sold Watch removed; never another customer's token.
    @Suite struct WalletTokenControlsTests {
        /// The card added in the app on the iPhone, then on the paired Watch (green: both active).
        @MainActor
        static func addOnPhoneAndWatch(_ live: LiveProvisio, client: ProvisioMobileClient) async throws {
            let device = await InAppProvisioningTests.device(live)
            let card = try #require(try await client.cards().first { $0.id == live.cardID })
            try await PassKitStandInEnvironment.$device.withValue(device) {
                for kind in [SandboxDeviceKind.phone, .watch] {
                    device.choose(.add(kind))
                    let result = await InAppProvisioningTests.add(card, provider: ProvisioClientPayloadProvider(client: client))
                    guard case .added = result else { throw SetupError("the add on the \(kind) failed: \(result)") }
                }
            }
        }

        @Test func theCardholderSuspendsResumesAndRemovesTheirOwnTokens() async throws {
            try await LiveProvisio.run { live in
                let client = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession(live.mobileSession))
                try await Self.addOnPhoneAndWatch(live, client: client)

                let listed = try await client.walletTokens()
                #expect(listed.count == 2)
                #expect(listed.allSatisfy { $0.cardID == live.cardID && $0.cardLast4 == "1111" && $0.wallet == .applePay })
                #expect(listed.allSatisfy { $0.state == .active && $0.tokenLast4?.count == 4 })
                var screen = CardDevicesModel(cardID: live.cardID, tokens: listed)
                #expect(screen.rows.map(\.deviceName) == ["iPhone", "Apple Watch"])
                #expect(screen.rows.allSatisfy { $0.actions == [.suspend, .delete] })
                let phone = screen.rows[0].token
                let watch = screen.rows[1].token
                let phonePass = try #require(await live.wallet.passes().first { !$0.isRemote })

                // A lost phone: suspended at the network and on the device.
                let suspended = try await client.suspendToken(id: phone.id)
                #expect(suspended.id == phone.id && suspended.state == .suspended)
                #expect(await live.wallet.pass(serialNumber: phonePass.serialNumber)?.activationState == .suspended)
                #expect(live.connector.received.map(\.operation) == ["lifecycle"])
                screen = screen.applying(suspended)
                #expect(screen.row(id: phone.id)?.actions == [.resume, .delete])
                #expect(try await client.walletTokens().first { $0.id == phone.id }?.state == .suspended)

                // Found again.
                let resumed = try await client.changeToken(id: phone.id, .resume, idempotencyKey: "resume-1")
                #expect(resumed.state == .active)
                #expect(await live.wallet.pass(serialNumber: phonePass.serialNumber)?.activationState == .activated)
                // The same key again replays the first answer: nothing reaches the network twice.
                let callsBefore = live.connector.received.count
                #expect(try await client.changeToken(id: phone.id, .resume, idempotencyKey: "resume-1") == resumed)
                #expect(live.connector.received.count == callsBefore)

                // Resuming an active token is refused with the server's code.
                let twice = await #expect(throws: ProvisioClientError.self) { _ = try await client.resumeToken(id: phone.id) }
                #expect(twice?.code == .tokenInvalidTransition && twice?.httpStatus == 409 && twice?.requestID != nil)
                #expect(twice?.userMessage == "This card can't be changed on that device right now.")

                // A Watch sold: removed for good, and no longer listed.
                let deleted = try await client.deleteToken(id: watch.id)
                #expect(deleted.state == .deleted && !deleted.state.isLive)
                #expect(try await client.walletTokens().map(\.id) == [phone.id])
                screen = screen.applying(deleted)
                #expect(screen.rows.map(\.id) == [phone.id])
                #expect(live.connector.received.map(\.word) == ["suspend", "resume", "delete"])
                // The issuer's backend sees the same states.
                let issuerStates = Dictionary(
                    uniqueKeysWithValues: try await live.issuerTokens().map { ($0.id, $0.state.rawValue) })
                #expect(issuerStates == [phone.id: "active", watch.id: "deleted"])
            }
        }

        @Test func anotherCustomersTokenIsNotFoundAndOnlyASessionReachesTokens() async throws {
            try await LiveProvisio.run { live in
                let client = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession(live.mobileSession))
                try await Self.addOnPhoneAndWatch(live, client: client)
                let mine = try #require(try await client.walletTokens().first)

                let stranger = ProvisioMobileClient(
                    baseURL: live.baseURL, credential: .mobileSession(try await live.otherCustomerSession()))
                #expect(try await stranger.walletTokens().isEmpty)
                let notFound = await #expect(throws: ProvisioClientError.self) {
                    _ = try await stranger.suspendToken(id: mine.id)
                }
                #expect(notFound?.code == .tokenNotFound && notFound?.httpStatus == 404)
                #expect(notFound?.userMessage == "This card is no longer on that device.")
                let notTheirs = await #expect(throws: ProvisioClientError.self) {
                    _ = try await stranger.activateTokenAfterAppAuthentication(id: mine.id)
                }
                #expect(notTheirs?.code == .tokenNotFound)
                let unknown = await #expect(throws: ProvisioClientError.self) { _ = try await client.deleteToken(id: "tok_nope") }
                #expect(unknown?.code == .tokenNotFound)
                // Nothing reached the network, and the token is as it was.
                #expect(live.connector.received.isEmpty)
                #expect(try await client.walletTokens().first { $0.id == mine.id }?.state == .active)

                // A provision token (a push to the Wallet extension) is not the cardholder's session.
                let push = ProvisioMobileClient(
                    baseURL: live.baseURL, credential: .provisionToken(try await live.provisionToken()))
                let wrongKind = await #expect(throws: ProvisioClientError.self) { _ = try await push.walletTokens() }
                #expect(wrongKind?.code == .wrongCredentialKind && wrongKind?.httpStatus == 403)

                // An id that is not Provisio's never leaves the app.
                let badID = await #expect(throws: ProvisioClientError.self) { _ = try await client.suspendToken(id: "../cards") }
                #expect(badID?.code == .clientRequestInvalid && badID?.message == "The token id is not a Provisio token id.")
            }
        }
    }
#endif
