#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioAPI
    import ProvisioClient
    import ProvisioCore
    import ProvisioKit
    import Testing

    /// The keychain item behind biometry, in memory: `credential(unlockedBy:)` counts the unlocks.
    final class MemoryBiometricStore: BiometricCredentialStore, Sendable {
        private let stored = Locked<String?>(nil)
        let unlocks = Recorder()

        init(_ credential: String? = nil) { stored.withLock { $0 = credential } }

        var value: String? { stored.value }
        func hasCredential() throws -> Bool { stored.value != nil }
        func credential(unlockedBy context: LAContext) throws -> String? {
            unlocks.add("unlock")
            return stored.value
        }
        func save(_ credential: String) throws { stored.withLock { $0 = credential } }
        func remove() throws { stored.withLock { $0 = nil } }
    }

    /// The example's issuer backend, played against a real Provisio: it checks the password (or
    /// a device credential it issued) and asks Provisio for a mobile session with its API key.
    final class TestIssuerBackend: Sendable {
        let live: LiveProvisio
        let account: ExtensionAccount.ID
        private let deviceCredentials = Locked<Set<String>>([])
        let calls = Recorder()

        init(_ live: LiveProvisio, account: ExtensionAccount.ID) {
            self.live = live
            self.account = account
        }

        struct InvalidCredentials: Error {}

        func signIn(username: String, password: String) async throws -> BiometricSignIn.Grant {
            calls.add("password")
            guard username == "jane", password == "correct horse" else { throw InvalidCredentials() }
            let device = "dev_\(UUID().uuidString)"
            deviceCredentials.withLock { _ = $0.insert(device) }
            return BiometricSignIn.Grant(account: try await session(), biometricCredential: device)
        }

        func exchange(deviceCredential: String) async throws -> BiometricSignIn.Grant {
            calls.add("device")
            guard deviceCredentials.value.contains(deviceCredential) else { throw InvalidCredentials() }
            return BiometricSignIn.Grant(account: try await session())
        }

        /// `POST /v1/mobile-sessions`, as the issuer's backend calls it.
        private func session() async throws -> StoredExtensionAccount {
            let created = try await LiveProvisio.api(live.baseURL, live.apiKey)
                .createMobileSession(body: .json(.init(customerRef: account.consumerID))).created.body.json
            return StoredExtensionAccount(
                accountIDs: [account], credential: created.token, expiresAt: Date().addingTimeInterval(600),
                serverURL: live.baseURL)
        }
    }

    /// Manual and biometric sign-in in the Wallet UI extension, one test per branch, with the
    /// stand-in's scripted biometry (`PassKitStandInLocalAuthentication`).
    @Suite struct BiometricSignInTests {
        static let reason = "Sign in to add your card to Apple Wallet."
        static let account = ExtensionAccount.ID(issuerID: "kit-bank", consumerID: "cust_kit")

        struct Parts {
            let sessions = MemorySessionStore()
            let credentials: MemoryBiometricStore
            let results = Recorder()
            let errors = Recorder()
            let signIn: BiometricSignIn

            init(credential: String?) {
                credentials = MemoryBiometricStore(credential)
                let (results, errors) = (results, errors)
                let authorization = ExtensionAuthorization(sessions: sessions) { results.add("\($0)") }
                signIn = BiometricSignIn(
                    authorization: authorization, credentials: credentials, localizedReason: BiometricSignInTests.reason,
                    errorEncountered: { errors.add($0.code.rawValue) })
            }
        }

        static func grant(_ token: String, biometric: String? = nil) -> BiometricSignIn.Grant {
            BiometricSignIn.Grant(
                account: StoredExtensionAccount(
                    accountIDs: [account], credential: token, expiresAt: Date().addingTimeInterval(600)),
                biometricCredential: biometric)
        }

        static func withBiometry<T>(_ behaviour: PassKitStandInLocalAuthentication.Behaviour, _ body: () async throws -> T)
            async rethrows -> (T, PassKitStandInLocalAuthentication)
        {
            let device = PassKitStandInLocalAuthentication(behaviour)
            let value = try await PassKitStandInEnvironment.$localAuthentication.withValue(device) { try await body() }
            return (value, device)
        }

        @Test func biometricsUnlockTheStoredCredentialAndSignIn() async throws {
            let parts = Parts(credential: "dev_1")
            let exchanged = Recorder()
            let ((biometry, outcome), device) = await Self.withBiometry(.available(.faceID)) {
                let biometry = parts.signIn.availableBiometry()
                let outcome = await parts.signIn.signInWithBiometrics { credential in
                    exchanged.add(credential)
                    return Self.grant("mob_bio")
                }
                return (biometry, outcome)
            }
            #expect(biometry == .faceID)
            #expect(outcome == .signedIn)
            #expect(device.evaluations == [Self.reason])
            #expect(exchanged.all == ["dev_1"] && parts.credentials.unlocks.all == ["unlock"])
            #expect(parts.results.all == ["authorized"])
            #expect(try parts.sessions.load()?.accounts.map(\.credential) == ["mob_bio"])
            #expect(parts.credentials.value == "dev_1", "a grant without a new credential keeps the stored one")
        }

        @Test func unavailableBiometricsGoStraightToThePassword() async throws {
            for behaviour in [PassKitStandInLocalAuthentication.Behaviour.noBiometry, .unavailable(code: -7)] {
                let parts = Parts(credential: "dev_1")
                let ((biometry, outcome), device) = await Self.withBiometry(behaviour) {
                    (parts.signIn.availableBiometry(), await parts.signIn.signInWithBiometrics { _ in Self.grant("x") })
                }
                #expect(biometry == nil)
                #expect(outcome == .usePassword(.biometricsUnavailable))
                #expect(device.evaluations.isEmpty, "no prompt when biometrics cannot be evaluated")
                #expect(parts.credentials.unlocks.all.isEmpty && parts.results.all.isEmpty)
            }
        }

        @Test func withoutAStoredCredentialBiometricsAreNotOffered() async throws {
            let parts = Parts(credential: nil)
            let ((biometry, outcome), device) = await Self.withBiometry(.available(.touchID)) {
                (parts.signIn.availableBiometry(), await parts.signIn.signInWithBiometrics { _ in Self.grant("x") })
            }
            #expect(biometry == nil)
            #expect(outcome == .usePassword(.noStoredCredential))
            #expect(device.evaluations.isEmpty && parts.results.all.isEmpty)
        }

        @Test(
            arguments: [
                (LAError.Code.authenticationFailed.rawValue, BiometricSignIn.Fallback.biometricsFailed),
                (-8, .biometricsFailed),  // kLAErrorBiometryLockout
                (LAError.Code.userCancel.rawValue, .canceled),
                (LAError.Code.systemCancel.rawValue, .canceled),
                (LAError.Code.appCancel.rawValue, .canceled),
                (LAError.Code.userFallback.rawValue, .passwordChosen),
            ])
        func aFailedOrCancelledPromptFallsBackToThePassword(code: Int, expected: BiometricSignIn.Fallback) async throws {
            let parts = Parts(credential: "dev_1")
            let (outcome, device) = await Self.withBiometry(.failing(.faceID, code: code)) {
                await parts.signIn.signInWithBiometrics { _ in Self.grant("never") }
            }
            #expect(outcome == .usePassword(expected))
            #expect(device.evaluations.count == 1)
            #expect(parts.credentials.unlocks.all.isEmpty, "the credential stays locked")
            #expect(parts.results.all.isEmpty, "Wallet is not answered: the password form is shown")
            #expect(try parts.sessions.load() == nil)

            // The password then signs in, and keeps the backend's new credential for biometrics.
            let signedIn = try await parts.signIn.signInWithPassword { Self.grant("mob_pw", biometric: "dev_2") }
            #expect(signedIn == .signedIn && parts.results.all == ["authorized"])
            #expect(parts.credentials.value == "dev_2")
        }

        @Test func aRefusedCredentialFallsBackToThePasswordAndAWrongPasswordMayBeRetried() async throws {
            let parts = Parts(credential: "dev_revoked")
            struct Refused: Error {}
            let (outcome, _) = await Self.withBiometry(.available(.faceID)) {
                await parts.signIn.signInWithBiometrics { _ in throw Refused() }
            }
            #expect(outcome == .usePassword(.exchangeFailed))
            #expect(parts.results.all.isEmpty && parts.errors.all.count == 1)

            await #expect(throws: Refused.self) { try await parts.signIn.signInWithPassword { throw Refused() } }
            #expect(parts.results.all.isEmpty, "a wrong password leaves Wallet waiting")
            let outcomeAfter = try await parts.signIn.signInWithPassword { Self.grant("mob_pw") }
            #expect(outcomeAfter == .signedIn && parts.results.all == ["authorized"])
            // Wallet has its answer: nothing more is attempted.
            let (again, device) = await Self.withBiometry(.available(.faceID)) {
                await parts.signIn.signInWithBiometrics { _ in Self.grant("x") }
            }
            #expect(again == .ended && device.evaluations.isEmpty)
        }

        @Test func aSessionThatCannotBeStoredEndsWithCanceled() async throws {
            let credentials = MemoryBiometricStore("dev_1")
            let results = Recorder()
            let signIn = BiometricSignIn(
                authorization: ExtensionAuthorization(sessions: BrokenStore()) { results.add("\($0)") },
                credentials: credentials, localizedReason: Self.reason)
            let (outcome, _) = await Self.withBiometry(.available(.faceID)) {
                await signIn.signInWithBiometrics { _ in Self.grant("mob") }
            }
            #expect(outcome == .ended && results.all == ["canceled"])
        }

        /// Password through the issuer's backend (which calls Provisio), then biometrics on the
        /// next sign-in; each session adds a card through the non-UI extension.
        @Test func passwordThenBiometricsThroughTheIssuerBackendAgainstProvisio() async throws {
            try await LiveProvisio.run { live in
                let (container, storage, sessions, handler) = try WalletExtensionHandlerTests.extensionParts(live)
                defer { try? FileManager.default.removeItem(at: container) }
                let client = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession(live.mobileSession))
                let card = try #require(try await client.cards().first { $0.id == live.cardID })
                try storage.save(
                    ExtensionConfiguration(
                        accounts: [
                            ExtensionAccount(
                                issuerID: Self.account.issuerID, consumerID: Self.account.consumerID,
                                cards: [
                                    WalletCard(
                                        id: card.id, primaryAccountIdentifier: card.primaryAccountIdentifier, title: "Visa",
                                        last4: card.last4, artReference: "visa.png")
                                ])
                        ], savedAt: Date()))
                try storage.saveArt(WalletExtensionHandlerTests.png(), named: "visa.png")
                let backend = TestIssuerBackend(live, account: Self.account)
                let credentials = MemoryBiometricStore()
                let device = PassKitStandInLocalAuthentication(.available(.faceID))

                func signIn() -> (BiometricSignIn, Recorder) {
                    let results = Recorder()
                    let authorization = ExtensionAuthorization(sessions: sessions) { results.add("\($0)") }
                    return (
                        BiometricSignIn(authorization: authorization, credentials: credentials, localizedReason: Self.reason),
                        results
                    )
                }

                // First time on this device: nothing to unlock, so the password, through the backend.
                let (first, firstResults) = signIn()
                let firstOutcome = await PassKitStandInEnvironment.$localAuthentication.withValue(device) {
                    await first.signInWithBiometrics { try await backend.exchange(deviceCredential: $0) }
                }
                #expect(firstOutcome == .usePassword(.noStoredCredential))
                await #expect(throws: TestIssuerBackend.InvalidCredentials.self) {
                    _ = try await first.signInWithPassword { try await backend.signIn(username: "jane", password: "wrong") }
                }
                let passwordOutcome = try await first.signInWithPassword {
                    try await backend.signIn(username: "jane", password: "correct horse")
                }
                #expect(passwordOutcome == .signedIn && firstResults.all == ["authorized"])
                #expect(credentials.value?.hasPrefix("dev_") == true)
                let phone = try await WalletExtensionHandlerTests.walletAdds(
                    "phone:\(card.id)", on: .phone, handler: handler, live: live,
                    primaryAccountIdentifier: card.primaryAccountIdentifier)
                #expect(phone?.primaryAccountNumber.last4 == "1111", "\(handler.errors.all)")

                // Next time (the session gone): Face ID unlocks the device credential instead.
                try sessions.signOutAll()
                #expect(await handler.currentStatus().requiresAuthentication)
                let (second, secondResults) = signIn()
                let secondOutcome = await PassKitStandInEnvironment.$localAuthentication.withValue(device) {
                    await second.signInWithBiometrics { try await backend.exchange(deviceCredential: $0) }
                }
                #expect(secondOutcome == .signedIn && secondResults.all == ["authorized"])
                #expect(backend.calls.all == ["password", "password", "device"])
                #expect(device.evaluations == [Self.reason])
                let watch = try await WalletExtensionHandlerTests.walletAdds(
                    "watch:\(card.id)", on: .watch, handler: handler, live: live,
                    primaryAccountIdentifier: card.primaryAccountIdentifier)
                #expect(watch?.primaryAccountNumber.last4 == "1111", "\(handler.errors.all)")
                #expect(handler.errors.all.isEmpty, "\(handler.errors.all)")
            }
        }
    }
#endif
