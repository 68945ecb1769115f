import Crypto
import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// The sandbox network end to end against a live Provisio: Wallet begins the add, Provisio
/// builds the payload, Apple's service opens it, the network asks Provisio to decide over HTTP
/// and puts the pass on the device; then verification and network-originated lifecycle.
@Suite struct SandboxNetworkTests {
    @Test(arguments: TestEngine.available)
    func greenPathPutsAnActivatedPassOnThePhoneAndAnActiveToken(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let submission = try await h.add()

                let outcome = try #require(await h.network.outcome(sessionID: submission.sessionID))
                #expect(outcome.decision == .approve && outcome.activationMethods.isEmpty)
                let pass = try #require(await h.wallet.pass(primaryAccountIdentifier: h.cardID, on: .phone))
                #expect(pass.activationState == .activated && pass.primaryAccountNumberSuffix == "1111")
                #expect(outcome.pass == pass)
                #expect(await h.wallet.passes(on: .watch).isEmpty)

                let token = try #require(await h.network.token(networkTokenRef: outcome.networkTokenRef))
                #expect(token.state == .active && token.passSerialNumber == pass.serialNumber)
                #expect(token.deviceAccountIdentifier == pass.deviceAccountIdentifier)
                let tokenPAN = token.tokenPrimaryAccountNumber.unmaskedDigits
                #expect(tokenPAN.count == 16 && tokenPAN.hasPrefix(SandboxTokenPAN.defaultBIN))
                #expect((try? PrimaryAccountNumber(tokenPAN)) != nil, "the token PAN passes Luhn")
                #expect(tokenPAN != SandboxNetworkHarness.pan)
                #expect(!"\(token)".contains(SandboxNetworkHarness.pan) && !"\(token)".contains(tokenPAN))

                let issued = try await h.issuerTokens()
                #expect(issued.count == 1)
                #expect(issued.first?.id == outcome.issuerTokenID)
                #expect(issued.first?.state == .active)
                #expect(issued.first?.tokenLast4 == token.tokenPrimaryAccountNumber.last4)
                #expect(issued.first?.deviceAccountIdentifier == pass.deviceAccountIdentifier)
                #expect(issued.first?.deviceType == .phone)

                // The card is on the phone now: Wallet refuses a second add there.
                let again = await networkError { try await h.add() }
                #expect(again?.code == .sandboxPassExists)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func yellowPathActivatesWithTheIssuersTAVAndRefusesForgeries(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                await h.network.setRisk(.yellow, forLast4: "1111")
                let submission = try await h.add()
                let outcome = try #require(await h.network.outcome(sessionID: submission.sessionID))
                #expect(outcome.decision == .requireVerification)
                #expect(outcome.reasons == ["wallet_recommends_verification"])
                #expect(outcome.activationMethods.contains("app_to_app"))
                let pending = try #require(await h.wallet.pass(primaryAccountIdentifier: h.cardID, on: .phone))
                #expect(pending.activationState == .requiresActivation)
                #expect(try await h.issuerToken(outcome.issuerTokenID).state == .pendingVerification)
                let ref = outcome.networkTokenRef

                // Forged: another key signed it.
                let forger = TAVSigner(privateKey: P256.Signing.PrivateKey())
                let forged = try forger.sign(
                    pan: try PrimaryAccountNumber(SandboxNetworkHarness.pan), expiry: try CardExpiry(month: 12, year: 2030),
                    validUntil: server.clock.now().addingTimeInterval(600))
                // The issuer's key, but another card.
                let issuerSigner = TAVSigner(privateKey: server.keys.tavSigningKey)
                let otherCard = try issuerSigner.sign(
                    pan: try PrimaryAccountNumber("5555555555554444"), expiry: try CardExpiry(month: 12, year: 2030),
                    validUntil: server.clock.now().addingTimeInterval(600))
                // The issuer's own TAV for this card, but used too late.
                let stale = try await h.activationData(tokenID: outcome.issuerTokenID)
                server.clock.advance(by: 31 * 60)
                for (data, code) in [
                    (forged, ProvisioError.Code.tavKeyMismatch), (otherCard, .tavBadSignature), (stale, .tavExpired),
                    ("not a tav", .tavMalformed),
                ] {
                    let refused = await networkError {
                        try await h.network.verifyActivationData(networkTokenRef: ref, activationData: data)
                    }
                    #expect(refused?.code == code)
                }
                // Nothing changed anywhere.
                #expect(await h.network.token(networkTokenRef: ref)?.state == .pendingActivation)
                #expect(await h.wallet.pass(serialNumber: pending.serialNumber)?.activationState == .requiresActivation)
                #expect(try await h.issuerToken(outcome.issuerTokenID).state == .pendingVerification)

                // In-app verification: the app asks Provisio for a TAV, the network checks it.
                let tav = try await h.activationData(tokenID: outcome.issuerTokenID)
                let activated = try await h.network.verifyActivationData(networkTokenRef: ref, activationData: tav)
                #expect(activated.state == .active)
                #expect(await h.wallet.pass(serialNumber: pending.serialNumber)?.activationState == .activated)
                let issued = try await h.issuerToken(outcome.issuerTokenID)
                #expect(issued.state == .active && issued.networkState == "activated")

                // A token is activated once.
                let twice = await networkError {
                    try await h.network.verifyActivationData(networkTokenRef: ref, activationData: tav)
                }
                #expect(twice?.code == .sandboxNetworkTokenStateInvalid)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func yellowPathWithOneTimeCodesLocksAfterThreeWrongCodes(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .yellow) { h in
                let phone = try await h.add(on: .phone)
                let locked = try #require(await h.network.outcome(sessionID: phone.sessionID)).networkTokenRef

                let notYet = await networkError { try await h.network.verifyOTP(networkTokenRef: locked, code: "000000") }
                #expect(notYet?.code == .sandboxOTPNotRequested)
                let otp = try await h.network.requestOTP(networkTokenRef: locked)
                #expect(otp.code.count == 6 && otp.code.allSatisfy(\.isNumber))
                #expect(otp.expiresAt == server.clock.now().addingTimeInterval(5 * 60))
                #expect(!"\(otp)".contains(otp.code))
                let wrong = otp.code == "000000" ? "111111" : "000000"
                for _ in 0..<3 {
                    let refused = await networkError { try await h.network.verifyOTP(networkTokenRef: locked, code: wrong) }
                    #expect(refused?.code == .sandboxOTPInvalid)
                }
                // Beyond the limit even the right code is refused, and no new code is issued.
                let lockedOut = await networkError { try await h.network.verifyOTP(networkTokenRef: locked, code: otp.code) }
                #expect(lockedOut?.code == .sandboxOTPLocked)
                let noNewCode = await networkError { try await h.network.requestOTP(networkTokenRef: locked) }
                #expect(noNewCode?.code == .sandboxOTPLocked)
                #expect(await h.network.token(networkTokenRef: locked)?.state == .pendingActivation)
                #expect(
                    await h.wallet.pass(primaryAccountIdentifier: h.cardID, on: .phone)?.activationState == .requiresActivation)

                // A fresh token for the same card on the Watch: an expired code, then the right one.
                let watch = try await h.add(on: .watch)
                let watchOutcome = try #require(await h.network.outcome(sessionID: watch.sessionID))
                let fresh = watchOutcome.networkTokenRef
                let first = try await h.network.requestOTP(networkTokenRef: fresh)
                server.clock.advance(by: 5 * 60)
                let expired = await networkError { try await h.network.verifyOTP(networkTokenRef: fresh, code: first.code) }
                #expect(expired?.code == .sandboxOTPExpired)
                let second = try await h.network.requestOTP(networkTokenRef: fresh)
                let verified = try await h.network.verifyOTP(networkTokenRef: fresh, code: second.code)
                #expect(verified.state == .active)
                #expect(await h.wallet.pass(primaryAccountIdentifier: h.cardID, on: .watch)?.activationState == .activated)
                let issued = try await h.issuerToken(watchOutcome.issuerTokenID)
                #expect(issued.state == .active && issued.networkState == "otp_verified")
                let replay = await networkError { try await h.network.verifyOTP(networkTokenRef: fresh, code: second.code) }
                #expect(replay?.code == .sandboxNetworkTokenStateInvalid)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func redPathAddsNoPassAndTheIssuerRecordsTheDecline(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .red) { h in
                let (session, error) = try await h.refusedAdd()
                #expect(error.code == .sandboxNetworkDeclined)
                #expect(error.message.contains("wallet_recommends_decline"))
                #expect(!error.message.contains(SandboxNetworkHarness.pan))
                let outcome = try #require(await h.network.outcome(sessionID: session.id))
                #expect(outcome.decision == .decline && outcome.pass == nil)
                #expect(outcome.reasons == ["wallet_recommends_decline"])
                #expect(await h.wallet.passes().isEmpty)
                #expect(await h.network.token(networkTokenRef: outcome.networkTokenRef)?.state == .declined)
                let issued = try await h.issuerToken(outcome.issuerTokenID)
                #expect(issued.state == .declined)
                #expect(issued.decisionReasons == ["wallet_recommends_decline"])

                // Per-call risk beats the scenario: the watch add with low scores is declined by
                // the issuer's rules for that reason.
                let plainApple = SandboxAppleProvisioningService(wallet: h.wallet)
                let submission = try await h.add(on: .watch, through: plainApple)
                let lowScores = try await h.network.provision(
                    submission, risk: RiskAssessment(deviceScore: 1, accountScore: 5, walletRecommendation: .approve))
                #expect(lowScores.decision == .decline && lowScores.reasons == ["device_score_too_low"])
                #expect(await h.wallet.passes().isEmpty)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func removalFromWalletDeletesAndALostDeviceSuspends(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let onPhone = try #require(await h.network.outcome(sessionID: try await h.add(on: .phone).sessionID))
                let onWatch = try #require(await h.network.outcome(sessionID: try await h.add(on: .watch).sessionID))

                let removed = try await h.network.removeFromWallet(networkTokenRef: onPhone.networkTokenRef)
                #expect(removed.state == .deleted && removed.passSerialNumber == nil)
                #expect(await h.wallet.pass(primaryAccountIdentifier: h.cardID, on: .phone) == nil)
                let deleted = try await h.issuerToken(onPhone.issuerTokenID)
                #expect(deleted.state == .deleted && deleted.networkState == "removed_from_wallet")

                let lost = try await h.network.reportDeviceLost(networkTokenRef: onWatch.networkTokenRef)
                #expect(lost.state == .suspended)
                #expect(await h.wallet.pass(primaryAccountIdentifier: h.cardID, on: .watch)?.activationState == .suspended)
                let suspended = try await h.issuerToken(onWatch.issuerTokenID)
                #expect(suspended.state == .suspended && suspended.networkState == "device_lost")

                // A deleted token is gone for good; a suspended one cannot be lost twice.
                let gone = await networkError { try await h.network.reportDeviceLost(networkTokenRef: onPhone.networkTokenRef) }
                #expect(gone?.code == .sandboxNetworkTokenStateInvalid)
                let twice = await networkError { try await h.network.reportDeviceLost(networkTokenRef: onWatch.networkTokenRef) }
                #expect(twice?.code == .sandboxNetworkTokenStateInvalid)
                let unknown = await networkError { try await h.network.removeFromWallet(networkTokenRef: "sbx_ntr_nope") }
                #expect(unknown?.code == .sandboxNetworkTokenUnknown)

                // Expiry of the suspended token: deleted at both ends, the pass deactivated.
                let expired = try await h.network.expireToken(networkTokenRef: onWatch.networkTokenRef)
                #expect(expired.state == .deleted)
                #expect(await h.wallet.pass(primaryAccountIdentifier: h.cardID, on: .watch)?.activationState == .deactivated)
                let final = try await h.issuerToken(onWatch.issuerTokenID)
                #expect(final.state == .deleted && final.networkState == "token_expired")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func theIssuerConnectionNamesProvisiosErrorsAndTransportFailures(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let port = try #require(server.raw.port)
                let request = IssuerDecisionRequest(
                    primaryAccountNumber: try PrimaryAccountNumber("5555555555554444"),
                    expiry: try CardExpiry(month: 12, year: 2030), deviceType: .phone, networkTokenRef: "sbx_ntr_unknown_card",
                    tokenLast4: "1234", deviceAccountIdentifier: "DAI1", risk: .green)
                #expect(!"\(request)".contains("5555555555554444") && !String(reflecting: request).contains("5555555555554444"))

                let unknownCard = await networkError { try await h.network.issuer.requestDecision(request) }
                #expect(unknownCard?.code == .cardNotFound)
                #expect(unknownCard.map { !$0.message.contains("5555555555554444") } == true)
                let unknownRef = await networkError {
                    try await (h.network.issuer as! IssuerConnection).report(event: .suspended, networkTokenRef: "sbx_ntr_nope")
                }
                #expect(unknownRef?.code == .tokenNotFound)
                let wrongKey = IssuerConnection(baseURL: "http://127.0.0.1:\(port)", networkKey: h.apiKey)
                let wrongKind = await networkError { try await wrongKey.requestDecision(request) }
                #expect(wrongKind?.code == .wrongCredentialKind)

                // Nothing listens on port 1.
                let nowhere = IssuerConnection(baseURL: "http://127.0.0.1:1", networkKey: h.networkKey, timeout: .seconds(2))
                let unreachable = await networkError { try await nowhere.requestDecision(request) }
                #expect(unreachable?.code == .sandboxIssuerUnreachable)
                #expect(unreachable.map { !$0.message.contains("5555555555554444") } == true)
            }
        }
    }
}
