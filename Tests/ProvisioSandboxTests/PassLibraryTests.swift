import Foundation
import ProvisioCore
import ProvisioSandbox
import Testing

/// The pass library of each device, as the issuer app sees it through PassKit.
@Suite struct PassLibraryTests {
    /// Card A on both devices, card B on the iPhone only, card C on the Watch only.
    func populatedWallet() async throws -> (
        SandboxWallet, phoneA: SandboxPass, watchA: SandboxPass, b: SandboxPass, c: SandboxPass
    ) {
        let wallet = Harness().wallet
        let phoneA = try await wallet.addPass(
            on: .phone, primaryAccountIdentifier: "card_a", primaryAccountNumberSuffix: "4444",
            deviceAccountIdentifier: "dpan_a_phone")
        let watchA = try await wallet.addPass(
            on: .watch, primaryAccountIdentifier: "card_a", primaryAccountNumberSuffix: "4444",
            deviceAccountIdentifier: "dpan_a_watch", activationState: .requiresActivation)
        let b = try await wallet.addPass(
            on: .phone, primaryAccountIdentifier: "card_b", primaryAccountNumberSuffix: "1111",
            deviceAccountIdentifier: "dpan_b_phone")
        let c = try await wallet.addPass(
            on: .watch, primaryAccountIdentifier: "card_c", primaryAccountNumberSuffix: "0005",
            deviceAccountIdentifier: "dpan_c_watch", activationState: .suspended)
        return (wallet, phoneA, watchA, b, c)
    }

    @Test func addedPassesCarryPassKitsFields() async throws {
        let (_, phoneA, watchA, _, c) = try await populatedWallet()
        #expect(phoneA.passTypeIdentifier == "paymentpass.com.apple")
        #expect(phoneA.primaryAccountIdentifier == "card_a")
        #expect(phoneA.primaryAccountNumberSuffix == "4444")
        #expect(phoneA.deviceAccountIdentifier == "dpan_a_phone")
        #expect(phoneA.activationState == .activated)
        #expect(phoneA.deviceKind == .phone && !phoneA.isRemote)
        #expect(watchA.deviceKind == .watch && watchA.isRemote)
        #expect(watchA.activationState == .requiresActivation)
        #expect(c.activationState == .suspended)
        #expect(phoneA.serialNumber != watchA.serialNumber)
        #expect(!phoneA.serialNumber.isEmpty)
    }

    @Test func localIsTheIPhoneAndRemoteIsTheWatch() async throws {
        let (wallet, phoneA, watchA, b, c) = try await populatedWallet()
        #expect(await wallet.localPasses() == [phoneA, b])
        #expect(await wallet.remotePasses() == [watchA, c])
        #expect(await wallet.passes(on: .phone) == [phoneA, b])
        #expect(await wallet.passes(on: .watch) == [watchA, c])
        #expect(await wallet.passes() == [phoneA, b, watchA, c])
    }

    @Test func lookupsPerDeviceAndAcrossBoth() async throws {
        let (wallet, phoneA, watchA, b, c) = try await populatedWallet()
        // By primary account identifier.
        #expect(await wallet.passes(primaryAccountIdentifier: "card_a") == [phoneA, watchA])
        #expect(await wallet.passes(primaryAccountIdentifier: "card_a", on: .watch) == [watchA])
        #expect(await wallet.pass(primaryAccountIdentifier: "card_a", on: .phone) == phoneA)
        #expect(await wallet.pass(primaryAccountIdentifier: "card_b", on: .watch) == nil)
        #expect(await wallet.pass(primaryAccountIdentifier: "card_c", on: .watch) == c)
        #expect(await wallet.passes(primaryAccountIdentifier: "card_z").isEmpty)
        // By serial number.
        #expect(await wallet.pass(serialNumber: watchA.serialNumber) == watchA)
        #expect(await wallet.pass(serialNumber: b.serialNumber, on: .phone) == b)
        #expect(await wallet.pass(serialNumber: b.serialNumber, on: .watch) == nil)
        #expect(await wallet.pass(serialNumber: "nope") == nil)
        // By device account identifier.
        #expect(await wallet.pass(deviceAccountIdentifier: "dpan_c_watch") == c)
        #expect(await wallet.pass(deviceAccountIdentifier: "dpan_c_watch", on: .watch) == c)
        #expect(await wallet.pass(deviceAccountIdentifier: "dpan_c_watch", on: .phone) == nil)
        #expect(await wallet.pass(deviceAccountIdentifier: "dpan_a_phone", on: .phone) == phoneA)
    }

    @Test func canAddOnlyWhereTheCardIsNotYet() async throws {
        let (wallet, _, _, _, _) = try await populatedWallet()
        #expect(await !wallet.canAddPass(primaryAccountIdentifier: "card_a"))
        #expect(await !wallet.canAddPass(primaryAccountIdentifier: "card_b", on: .phone))
        #expect(await wallet.canAddPass(primaryAccountIdentifier: "card_b", on: .watch))
        #expect(await wallet.canAddPass(primaryAccountIdentifier: "card_b"))
        #expect(await wallet.canAddPass(primaryAccountIdentifier: "card_c", on: .phone))
        #expect(await wallet.canAddPass(primaryAccountIdentifier: "card_new"))
    }

    @Test func duplicatesAreRefused() async throws {
        let (wallet, _, _, _, _) = try await populatedWallet()
        let sameCardSameDevice = await #expect(throws: ProvisioError.self) {
            try await wallet.addPass(
                on: .phone, primaryAccountIdentifier: "card_b", primaryAccountNumberSuffix: "1111",
                deviceAccountIdentifier: "dpan_b_again")
        }
        #expect(sameCardSameDevice?.code == .sandboxPassExists)
        let sameDeviceAccount = await #expect(throws: ProvisioError.self) {
            try await wallet.addPass(
                on: .watch, primaryAccountIdentifier: "card_b", primaryAccountNumberSuffix: "1111",
                deviceAccountIdentifier: "dpan_b_phone")
        }
        #expect(sameDeviceAccount?.code == .sandboxPassExists)
        #expect(await wallet.passes().count == 4)
    }

    @Test(arguments: [
        ("card_x", "123", "dpan_x"),
        ("card_x", "12345", "dpan_x"),
        ("card_x", "12a4", "dpan_x"),
        ("card_x", "١٢٣٤", "dpan_x"),
        ("", "1234", "dpan_x"),
        ("card_x", "1234", ""),
    ])
    func malformedPassesAreRefused(_ account: String, _ suffix: String, _ deviceAccount: String) async throws {
        let wallet = Harness().wallet
        let error = await #expect(throws: ProvisioError.self) {
            try await wallet.addPass(
                on: .phone, primaryAccountIdentifier: account, primaryAccountNumberSuffix: suffix,
                deviceAccountIdentifier: deviceAccount)
        }
        #expect(error?.code == .sandboxPassInvalid)
        #expect(await wallet.passes().isEmpty)
    }

    @Test func activationStateFollowsUpdates() async throws {
        let (wallet, phoneA, watchA, _, _) = try await populatedWallet()
        for state in [SandboxPassActivationState.activating, .activated, .suspended, .activated] {
            let updated = try await wallet.updateActivationState(state, serialNumber: watchA.serialNumber)
            #expect(updated.activationState == state)
            #expect(await wallet.pass(serialNumber: watchA.serialNumber)?.activationState == state)
        }
        // The same card's pass on the other device is a separate pass.
        #expect(await wallet.pass(serialNumber: phoneA.serialNumber)?.activationState == .activated)
        try await wallet.updateActivationState(.suspended, serialNumber: phoneA.serialNumber, on: .phone)
        #expect(await wallet.pass(serialNumber: phoneA.serialNumber)?.activationState == .suspended)
        #expect(await wallet.pass(serialNumber: watchA.serialNumber)?.activationState == .activated)
    }

    @Test func deactivationIsFinal() async throws {
        let (wallet, _, _, b, _) = try await populatedWallet()
        try await wallet.updateActivationState(.deactivated, serialNumber: b.serialNumber)
        try await wallet.updateActivationState(.deactivated, serialNumber: b.serialNumber)
        let error = await #expect(throws: ProvisioError.self) {
            try await wallet.updateActivationState(.activated, serialNumber: b.serialNumber)
        }
        #expect(error?.code == .sandboxPassStateInvalid)
        #expect(await wallet.pass(serialNumber: b.serialNumber)?.activationState == .deactivated)
    }

    @Test func unknownPassesAreReported() async throws {
        let (wallet, phoneA, _, _, _) = try await populatedWallet()
        for error in [
            await #expect(throws: ProvisioError.self) {
                try await wallet.updateActivationState(.activated, serialNumber: "nope")
            },
            await #expect(throws: ProvisioError.self) {
                try await wallet.updateActivationState(.suspended, serialNumber: phoneA.serialNumber, on: .watch)
            },
            await #expect(throws: ProvisioError.self) { try await wallet.removePass(serialNumber: "nope") },
            await #expect(throws: ProvisioError.self) {
                try await wallet.removePass(serialNumber: phoneA.serialNumber, on: .watch)
            },
        ] {
            #expect(error?.code == .sandboxPassUnknown)
        }
        #expect(await wallet.pass(serialNumber: phoneA.serialNumber)?.activationState == .activated)
    }

    @Test func removalTakesThePassOffOneDeviceOnly() async throws {
        let (wallet, phoneA, watchA, b, c) = try await populatedWallet()
        let removed = try await wallet.removePass(serialNumber: phoneA.serialNumber)
        #expect(removed == phoneA)
        #expect(await wallet.localPasses() == [b])
        #expect(await wallet.remotePasses() == [watchA, c])
        #expect(await wallet.pass(deviceAccountIdentifier: "dpan_a_phone") == nil)
        #expect(await wallet.passes(primaryAccountIdentifier: "card_a") == [watchA])
        #expect(await wallet.canAddPass(primaryAccountIdentifier: "card_a", on: .phone))
        let error = await #expect(throws: ProvisioError.self) { try await wallet.removePass(serialNumber: phoneA.serialNumber) }
        #expect(error?.code == .sandboxPassUnknown)
        // The card can be added back.
        let again = try await wallet.addPass(
            on: .phone, primaryAccountIdentifier: "card_a", primaryAccountNumberSuffix: "4444",
            deviceAccountIdentifier: "dpan_a_phone_2")
        #expect(await wallet.pass(primaryAccountIdentifier: "card_a", on: .phone) == again)
        #expect(again.serialNumber != phoneA.serialNumber)
    }
}
