import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import Testing

/// In-app provisioning end to end: the wallet begins a session, the real issuer code answers it,
/// Apple's sandbox service opens and checks the answer.
@Suite struct FullAddTests {
    @Test(arguments: [
        (EncryptionScheme.eccV2, SandboxDeviceKind.phone, BinaryEncoding.hex),
        (.eccV2, .watch, .base64),
        (.rsaV2, .phone, .base64),
        (.rsaV2, .watch, .hex),
    ])
    func issuerAnswerIsOpenedAndForwarded(_ scheme: EncryptionScheme, _ kind: SandboxDeviceKind, _ encoding: BinaryEncoding)
        async throws
    {
        let harness = Harness()
        let session = try await harness.wallet.beginAdd(
            on: kind, scheme: scheme, primaryAccountIdentifier: SandboxFixtures.primaryAccountIdentifier)
        harness.clock.advance(by: 2)
        let response = try harness.issuer.answer(session, encoding: encoding, at: harness.clock.now())
        switch scheme {
        case .eccV2: #expect(response.ephemeralPublicKey != nil && response.wrappedKey == nil)
        case .rsaV2: #expect(response.wrappedKey != nil && response.ephemeralPublicKey == nil)
        }

        let submission = try await harness.service.submit(sessionID: session.id, response: response, scheme: scheme)

        #expect(submission.primaryAccountNumber.unmaskedDigits == "5555555555554444")
        #expect(submission.expiry == SandboxFixtures.expiry)
        #expect(submission.cardholderName.value == "Jane Appleseed")
        #expect(submission.activationData == response.activationData)
        let device = try harness.wallet.device(kind)
        #expect(submission.device.kind == kind)
        #expect(submission.device == device)
        #expect(submission.device.identifier == device.identifier)
        #expect(submission.primaryAccountIdentifier == SandboxFixtures.primaryAccountIdentifier)
        #expect(submission.sessionID == session.id)
        #expect(submission.scheme == scheme)
        #expect(submission.submittedAt == harness.clock.now())
        #expect(await harness.network.received == [submission])

        // What reaches the network is the issuer's TAV for this very card.
        try TAVVerifier(publicKey: harness.issuer.tavKey.publicKey).verify(
            activationData: try #require(submission.activationData), pan: submission.primaryAccountNumber,
            expiry: submission.expiry, at: harness.clock.now())
    }

    @Test func aSubmissionShowsOnlyTheMaskedPAN() async throws {
        let harness = Harness()
        let session = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        let submission = try await harness.service.submit(
            sessionID: session.id, response: try harness.issuer.answer(session, at: harness.clock.now()), scheme: .eccV2)
        #expect(submission.primaryAccountIdentifier == nil)
        for text in ["\(submission)", String(reflecting: submission), String(describing: [submission])] {
            #expect(!text.contains("5555555555554444"))
            #expect(!text.contains("555555555555"))
        }
        #expect("\(submission)".contains("4444"))
    }

    @Test func withoutANetworkTheSubmissionIsStillReturned() async throws {
        let harness = Harness()
        let service = SandboxAppleProvisioningService(wallet: harness.wallet, clock: harness.clock)
        let session = try await harness.wallet.beginAdd(on: .watch, scheme: .eccV2)
        let submission = try await service.submit(
            sessionID: session.id, response: try harness.issuer.answer(session, at: harness.clock.now()), scheme: .eccV2)
        #expect(submission.device.kind == .watch)
        #expect(await harness.network.received.isEmpty)
    }

    @Test func aNetworkRefusalReachesTheCaller() async throws {
        let refusal = ProvisioError(.init("network_declined"), "The network declined the card.")
        let harness = Harness(network: RecordingNetwork(refusal: refusal))
        let session = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        let error = await harness.submissionError(session, try harness.issuer.answer(session, at: harness.clock.now()))
        #expect(error == refusal)
        #expect(await harness.network.received.count == 1)
    }
}

/// A session answers once, within 20 seconds, for its own nonce and device only.
@Suite struct SessionBindingTests {
    @Test func unknownSessionIsRefused() async throws {
        let harness = Harness()
        let session = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        let response = try harness.issuer.answer(session, at: harness.clock.now())
        let error = await #expect(throws: ProvisioError.self) {
            try await harness.service.submit(sessionID: "sbx_session_nope", response: response, scheme: .eccV2)
        }
        #expect(error?.code == .sandboxSessionUnknown)
        #expect(await harness.network.received.isEmpty)
    }

    @Test(arguments: EncryptionScheme.allCases)
    func replayIsRefused(_ scheme: EncryptionScheme) async throws {
        let harness = Harness()
        let session = try await harness.wallet.beginAdd(on: .phone, scheme: scheme)
        let response = try harness.issuer.answer(session, at: harness.clock.now())
        _ = try await harness.service.submit(sessionID: session.id, response: response, scheme: scheme)
        #expect(await harness.submissionError(session, response)?.code == .sandboxSessionReplayed)
        #expect(await harness.network.received.count == 1)
    }

    @Test func concurrentReplaysAreRefusedAllButOne() async throws {
        let harness = Harness()
        let session = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        let response = try harness.issuer.answer(session, at: harness.clock.now())
        let outcomes = await withTaskGroup(of: ProvisioError?.self) { group in
            for _ in 0..<12 {
                group.addTask { await harness.submissionError(session, response) }
            }
            return await group.reduce(into: [ProvisioError?]()) { $0.append($1) }
        }
        #expect(outcomes.count(where: { $0 == nil }) == 1)
        #expect(outcomes.compactMap { $0?.code } == Array(repeating: .sandboxSessionReplayed, count: 11))
        #expect(await harness.network.received.count == 1)
    }

    @Test func aFailedAnswerUsesTheSessionUp() async throws {
        let harness = Harness()
        let session = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        let wrong = try harness.issuer.answer(
            certificates: session.certificatesBase64, nonce: Data(repeating: 7, count: 16),
            nonceSignature: session.nonceSignature, scheme: .eccV2, at: harness.clock.now())
        #expect(await harness.submissionError(session, wrong)?.code == .sandboxNonceMismatch)
        let right = try harness.issuer.answer(session, at: harness.clock.now())
        #expect(await harness.submissionError(session, right)?.code == .sandboxSessionReplayed)
    }

    @Test(arguments: [
        (0.0, ProvisioError.Code?.none),
        (19.5, nil),
        (19.999, nil),
        (20.0, .sandboxSessionExpired),
        (20.001, .sandboxSessionExpired),
        (3600.0, .sandboxSessionExpired),
    ])
    func sessionExpiresAfterTwentySeconds(_ elapsed: TimeInterval, _ expected: ProvisioError.Code?) async throws {
        let harness = Harness()
        let session = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        #expect(session.expiresAt == SandboxFixtures.start.addingTimeInterval(20))
        let response = try harness.issuer.answer(session, at: harness.clock.now())
        harness.clock.advance(by: elapsed)
        #expect(await harness.submissionError(session, response)?.code == expected)
        #expect(await harness.network.received.count == (expected == nil ? 1 : 0))
    }

    @Test func longGoneSessionsAreForgottenButStillRefused() async throws {
        let harness = Harness()
        let old = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        let response = try harness.issuer.answer(old, at: harness.clock.now())
        harness.clock.advance(by: 3600)
        _ = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        #expect(await harness.wallet.session(id: old.id) == nil)
        #expect(await harness.submissionError(old, response)?.code == .sandboxSessionUnknown)
    }

    @Test func anotherSessionsNonceIsRefused() async throws {
        let harness = Harness()
        let first = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        let second = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        #expect(first.nonce != second.nonce)
        let answerForSecond = try harness.issuer.answer(second, at: harness.clock.now())
        #expect(await harness.submissionError(first, answerForSecond)?.code == .sandboxNonceMismatch)
        // The second session was not touched by the failed attempt on the first.
        #expect(await harness.submissionError(second, answerForSecond) == nil)
        #expect(await harness.network.received.map(\.sessionID) == [second.id])
    }

    enum Forgery: String, CaseIterable, Sendable {
        case signedByAnotherKey
        case freshSignatureBySameDevice
        case signedByTheWatch
        case signatureOfAnotherSession
        case truncated
        case notDER
    }

    @Test(arguments: Forgery.allCases)
    func forgedNonceSignatureIsRefused(_ forgery: Forgery) async throws {
        let harness = Harness()
        let session = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        let forged: Data
        switch forgery {
        case .signedByAnotherKey:
            forged = try P256.Signing.PrivateKey().signature(for: session.nonce).derRepresentation
        case .freshSignatureBySameDevice:
            // Valid under the iPhone's key, yet not the signature this session carries.
            forged = try harness.phoneKey.signature(for: session.nonce).derRepresentation
            #expect(session.device.isValidSignature(forged, for: session.nonce))
            #expect(forged != session.nonceSignature)
        case .signedByTheWatch:
            forged = try harness.watchKey.signature(for: session.nonce).derRepresentation
        case .signatureOfAnotherSession:
            forged = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2).nonceSignature
        case .truncated:
            forged = session.nonceSignature.dropLast()
        case .notDER:
            forged = Data(repeating: 0x30, count: 70)
        }
        let response = try harness.issuer.answer(
            certificates: session.certificatesBase64, nonce: session.nonce, nonceSignature: forged, scheme: .eccV2,
            at: harness.clock.now())
        #expect(await harness.submissionError(session, response)?.code == .sandboxNonceSignatureInvalid)
        #expect(await harness.network.received.isEmpty)
    }

    @Test func iPhoneSessionCannotCarryTheWatchsNonce() async throws {
        let harness = Harness()
        let phone = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        let watch = try await harness.wallet.beginAdd(on: .watch, scheme: .eccV2)
        let watchAnswer = try harness.issuer.answer(watch, at: harness.clock.now())
        #expect(await harness.submissionError(phone, watchAnswer)?.code == .sandboxNonceMismatch)

        // The Watch's secure element signing the iPhone's nonce does not pass for the iPhone.
        let phone2 = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        let crossSigned = try harness.issuer.answer(
            certificates: phone2.certificatesBase64, nonce: phone2.nonce,
            nonceSignature: try harness.watchKey.signature(for: phone2.nonce).derRepresentation, scheme: .eccV2,
            at: harness.clock.now())
        #expect(await harness.submissionError(phone2, crossSigned)?.code == .sandboxNonceSignatureInvalid)

        // The Watch's own session still works, and is reported as the Watch.
        let submission = try await harness.service.submit(sessionID: watch.id, response: watchAnswer, scheme: .eccV2)
        #expect(submission.device == harness.wallet.watch)
        #expect(submission.device.identifier != harness.wallet.phone.identifier)
    }

    @Test func schemeMustBeTheSessions() async throws {
        let harness = Harness()
        let session = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        let response = try harness.issuer.answer(session, at: harness.clock.now())
        #expect(await harness.submissionError(session, response, scheme: .rsaV2)?.code == .sandboxSchemeMismatch)
    }
}

/// Payload-level refusals come from ProvisioCrypto with their own codes.
@Suite struct PayloadRefusalTests {
    @Test(arguments: [
        (EncryptionScheme.eccV2, ProvisioError.Code.payloadAuthenticationFailed),
        (.rsaV2, .invalidWrappedKey),
    ])
    func payloadSealedToAnotherLeafIsRefused(_ scheme: EncryptionScheme, _ expected: ProvisioError.Code) async throws {
        let harness = Harness()
        let session = try await harness.wallet.beginAdd(on: .phone, scheme: scheme)
        let response = try harness.issuer.answer(
            certificates: try SandboxFixtures.otherCA.chainBase64(for: scheme), nonce: session.nonce,
            nonceSignature: session.nonceSignature, scheme: scheme, at: harness.clock.now())
        let error = await harness.submissionError(session, response)
        #expect(error?.code == expected)
        #expect(await harness.network.received.isEmpty)
    }

    enum Tampering: String, CaseIterable, Sendable {
        case flippedCiphertextByte
        case flippedTagByte
        case missingKeyMaterial
        case bothKeyMaterials
        case encryptedPassDataNotBase64
        case activationDataNotBase64

        func apply(to response: ApplePayloadResponse) -> ApplePayloadResponse {
            var response = response
            var bytes = Data(base64Encoded: response.encryptedPassData)!
            switch self {
            case .flippedCiphertextByte:
                bytes[bytes.startIndex] ^= 0x01
                response.encryptedPassData = bytes.base64EncodedString()
            case .flippedTagByte:
                bytes[bytes.index(before: bytes.endIndex)] ^= 0x80
                response.encryptedPassData = bytes.base64EncodedString()
            case .missingKeyMaterial:
                response.ephemeralPublicKey = nil
            case .bothKeyMaterials:
                response.wrappedKey = Data(repeating: 1, count: 256).base64EncodedString()
            case .encryptedPassDataNotBase64:
                response.encryptedPassData = "not base64!"
            case .activationDataNotBase64:
                response.activationData = "%%%"
            }
            return response
        }

        var expected: ProvisioError.Code {
            switch self {
            case .flippedCiphertextByte, .flippedTagByte: .payloadAuthenticationFailed
            case .missingKeyMaterial, .bothKeyMaterials, .encryptedPassDataNotBase64: .payloadMalformed
            case .activationDataNotBase64: .sandboxActivationDataMalformed
            }
        }
    }

    @Test(arguments: Tampering.allCases)
    func tamperedAnswerIsRefused(_ tampering: Tampering) async throws {
        let harness = Harness()
        let session = try await harness.wallet.beginAdd(on: .phone, scheme: .eccV2)
        let response = tampering.apply(to: try harness.issuer.answer(session, at: harness.clock.now()))
        let error = await harness.submissionError(session, response)
        #expect(error?.code == tampering.expected)
        #expect(error?.message.contains("5555555555554444") == false)
        #expect(await harness.network.received.isEmpty)
    }

    @Test func wrongKeyMaterialForTheSchemeIsRefused() async throws {
        let harness = Harness()
        let session = try await harness.wallet.beginAdd(on: .phone, scheme: .rsaV2)
        var response = try harness.issuer.answer(session, at: harness.clock.now())
        response.ephemeralPublicKey = response.wrappedKey
        response.wrappedKey = nil
        #expect(await harness.submissionError(session, response)?.code == .payloadMalformed)
    }
}
