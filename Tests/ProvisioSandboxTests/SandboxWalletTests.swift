import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import Testing

/// What the wallet hands the app when a card is added, and the devices it is made of.
@Suite struct SandboxWalletTests {
    @Test(arguments: EncryptionScheme.allCases, SandboxDeviceKind.apple)
    func sessionIsWhatPassKitHandsTheApp(_ scheme: EncryptionScheme, _ kind: SandboxDeviceKind) async throws {
        let harness = Harness()
        harness.clock.advance(by: 42)
        let session = try await harness.wallet.beginAdd(on: kind, scheme: scheme)

        #expect(session.certificates == (try SandboxFixtures.ca.chainDER(for: scheme)))
        #expect(session.certificatesBase64 == (try SandboxFixtures.ca.chainBase64(for: scheme)))
        // The chain is one an issuer accepts for this scheme.
        let chain = try AppleCertificateChainValidator.production(additionalAnchors: [SandboxFixtures.ca.root])
            .validate(derCertificates: session.certificates, scheme: scheme, at: harness.clock.now())
        #expect(chain.leaf == (scheme == .eccV2 ? SandboxFixtures.ca.eccLeaf : SandboxFixtures.ca.rsaLeaf))

        #expect(session.nonce.count == 16)
        let signature = try P256.Signing.ECDSASignature(derRepresentation: session.nonceSignature)
        #expect(harness.key(of: kind).publicKey.isValidSignature(signature, for: session.nonce))
        #expect(session.device == (try harness.wallet.device(kind)))
        #expect(session.scheme == scheme)
        #expect(session.createdAt == harness.clock.now())
        #expect(session.expiresAt == harness.clock.now().addingTimeInterval(20))
        #expect(await harness.wallet.session(id: session.id) == session)
    }

    @Test func everySessionHasItsOwnIdAndNonce() async throws {
        let harness = Harness()
        var sessions: [AddPaymentPassSession] = []
        for kind in [SandboxDeviceKind.phone, .watch, .phone, .watch, .phone] {
            sessions.append(try await harness.wallet.beginAdd(on: kind, scheme: .eccV2))
        }
        #expect(Set(sessions.map(\.id)).count == sessions.count)
        #expect(Set(sessions.map(\.nonce)).count == sessions.count)
        #expect(Set(sessions.map(\.nonceSignature)).count == sessions.count)
    }

    @Test func devicesHaveStableDistinctIdentifiers() async throws {
        let harness = Harness()
        let phone = try harness.wallet.device(.phone)
        let watch = try harness.wallet.device(.watch)
        #expect(phone.kind == .phone && watch.kind == .watch)
        #expect(phone.identifier != watch.identifier)
        #expect(phone.identifier.count == 32)
        #expect(harness.wallet.devices == [phone, watch])
        // Stable: the same secure element always gives the same identifier.
        #expect(try harness.wallet.device(.phone).identifier == phone.identifier)
        #expect(SandboxDevice(kind: .phone, secureElementPublicKey: harness.phoneKey.publicKey).identifier == phone.identifier)
        let session = try await harness.wallet.beginAdd(on: .watch, scheme: .eccV2)
        #expect(session.device.identifier == watch.identifier)
        #expect(phone.secureElementPublicKey.rawRepresentation == harness.phoneKey.publicKey.rawRepresentation)
        // Another wallet has other secure elements, hence other identifiers.
        let other = SandboxWallet(certificateAuthority: SandboxFixtures.ca, clock: harness.clock)
        #expect(other.phone.identifier != phone.identifier)
    }

    @Test func kindsMapToProvisioDeviceTypes() {
        #expect(SandboxDeviceKind.phone.deviceType == .phone)
        #expect(SandboxDeviceKind.watch.deviceType == .watch)
        #expect(!SandboxDeviceKind.phone.isRemote)
        #expect(SandboxDeviceKind.watch.isRemote)
        // Android devices record their form; only the Apple Watch's passes are remote.
        #expect(SandboxDeviceKind.androidPhone.deviceType == .phone)
        #expect(SandboxDeviceKind.galaxyWatch.deviceType == .watch)
        #expect(!SandboxDeviceKind.galaxyWatch.isRemote)
        #expect(SandboxDeviceKind.apple == [.phone, .watch])
    }

    @Test(arguments: [SandboxDeviceKind.androidPhone, .galaxyWatch])
    func appleWalletIsNotOnAndroidDevices(_ kind: SandboxDeviceKind) async throws {
        let wallet = Harness().wallet
        for error in [
            #expect(throws: ProvisioError.self) { try wallet.device(kind) },
            await #expect(throws: ProvisioError.self) { try await wallet.beginAdd(on: kind, scheme: .eccV2) },
        ] {
            #expect(error?.code == .sandboxDeviceUnavailable)
        }
        #expect(await !wallet.canAddPass(primaryAccountIdentifier: "card_1", on: kind))
    }

    @Test func withoutAPairedWatchTheWatchIsUnavailable() async throws {
        let clock = TestClock(SandboxFixtures.start)
        let wallet = SandboxWallet(certificateAuthority: SandboxFixtures.ca, clock: clock, watchSecureElement: nil)
        #expect(!wallet.hasPairedWatch)
        #expect(wallet.devices == [wallet.phone])
        for error in [
            #expect(throws: ProvisioError.self) { try wallet.device(.watch) },
            await #expect(throws: ProvisioError.self) { try await wallet.beginAdd(on: .watch, scheme: .eccV2) },
            await #expect(throws: ProvisioError.self) {
                try await wallet.addPass(
                    on: .watch, primaryAccountIdentifier: "card_1", primaryAccountNumberSuffix: "4444",
                    deviceAccountIdentifier: "dpan_1")
            },
        ] {
            #expect(error?.code == .sandboxDeviceUnavailable)
        }
        #expect(await wallet.remotePasses().isEmpty)
        #expect(await !wallet.canAddPass(primaryAccountIdentifier: "card_1", on: .watch))
        #expect(await wallet.canAddPass(primaryAccountIdentifier: "card_1"))
        _ = try await wallet.beginAdd(on: .phone, scheme: .eccV2)
    }

    @Test func aCAWithoutAnRSALeafCannotBeginRSA() async throws {
        var profile = SandboxCAProfile(now: SandboxFixtures.start)
        profile.issuesRSALeaf = false
        let wallet = SandboxWallet(
            certificateAuthority: try SandboxCertificateAuthority.generate(profile: profile),
            clock: TestClock(SandboxFixtures.start))
        let error = await #expect(throws: ProvisioError.self) { try await wallet.beginAdd(on: .phone, scheme: .rsaV2) }
        #expect(error?.code == .sandboxLeafUnavailable)
        _ = try await wallet.beginAdd(on: .phone, scheme: .eccV2)
    }

    @Test func walletRefusesToAddACardAlreadyOnThatDevice() async throws {
        let harness = Harness()
        try await harness.wallet.addPass(
            on: .phone, primaryAccountIdentifier: SandboxFixtures.primaryAccountIdentifier, primaryAccountNumberSuffix: "4444",
            deviceAccountIdentifier: "dpan_phone")
        let error = await #expect(throws: ProvisioError.self) {
            try await harness.wallet.beginAdd(
                on: .phone, scheme: .eccV2, primaryAccountIdentifier: SandboxFixtures.primaryAccountIdentifier)
        }
        #expect(error?.code == .sandboxPassExists)
        let session = try await harness.wallet.beginAdd(
            on: .watch, scheme: .eccV2, primaryAccountIdentifier: SandboxFixtures.primaryAccountIdentifier)
        #expect(session.primaryAccountIdentifier == SandboxFixtures.primaryAccountIdentifier)
    }
}
