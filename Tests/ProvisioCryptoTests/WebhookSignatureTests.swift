import Foundation
import ProvisioCore
import Testing

@testable import ProvisioCrypto

@Suite struct WebhookSignatureTests {
    /// The example from the Standard Webhooks specification.
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let id = "msg_p5jXN8AQM9LWM0D4loKWxJek"
    static let timestamp: Int64 = 1_614_265_330
    static let body = Data(#"{"test": 2432232314}"#.utf8)

    @Test func matchesTheStandardWebhooksExample() throws {
        let signer = try WebhookSigner(secret: Self.secret)
        #expect(
            signer.signature(id: Self.id, timestamp: Self.timestamp, body: Self.body)
                == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        let headers = signer.headers(id: Self.id, timestamp: Self.timestamp, body: Self.body)
        #expect(headers.map(\.name) == ["webhook-id", "webhook-timestamp", "webhook-signature"])
    }

    @Test func verifierAcceptsTheRealSignatureAndRefusesEverythingElse() throws {
        let verifier = try WebhookVerifier(secret: Self.secret)
        let now = Date(timeIntervalSince1970: Double(Self.timestamp) + 10)
        let good = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        try verifier.verify(id: Self.id, timestamp: String(Self.timestamp), signatureHeader: good, body: Self.body, at: now)
        // Several signatures (key rotation): one match is enough.
        try verifier.verify(
            id: Self.id, timestamp: String(Self.timestamp), signatureHeader: "v1,AAAA \(good)", body: Self.body, at: now)

        func code(_ body: () throws -> Void) -> ProvisioError.Code? {
            do { try body(); return nil } catch let error as ProvisioError { return error.code } catch {
                return ProvisioError.Code("unexpected")
            }
        }
        #expect(
            code {
                try verifier.verify(
                    id: Self.id, timestamp: String(Self.timestamp), signatureHeader: good, body: Data("{}".utf8), at: now)
            } == .webhookSignatureInvalid)
        #expect(
            code {
                try verifier.verify(
                    id: "msg_other", timestamp: String(Self.timestamp), signatureHeader: good, body: Self.body, at: now)
            } == .webhookSignatureInvalid)
        #expect(
            code {
                try verifier.verify(
                    id: Self.id, timestamp: String(Self.timestamp + 1), signatureHeader: good, body: Self.body, at: now)
            } == .webhookSignatureInvalid)
        #expect(
            code { try verifier.verify(id: Self.id, timestamp: "soon", signatureHeader: good, body: Self.body, at: now) }
                == .webhookSignatureInvalid)
        let late = now.addingTimeInterval(WebhookVerifier.defaultTolerance + 1)
        #expect(
            code {
                try verifier.verify(
                    id: Self.id, timestamp: String(Self.timestamp), signatureHeader: good, body: Self.body, at: late)
            } == .webhookTimestampOutOfTolerance)
    }

    @Test func secretsAreGeneratedAndChecked() throws {
        let secret = WebhookSigner.generateSecret()
        #expect(secret.hasPrefix("whsec_"))
        #expect(Data(base64Encoded: String(secret.dropFirst(6)))?.count == 32)
        #expect(throws: Never.self) { try WebhookSigner(secret: secret) }
        for bad in ["", "whsec_", "whsec_@@@", "sk_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_AAAA"] {
            #expect((#expect(throws: ProvisioError.self) { try WebhookSigner(secret: bad) })?.code == .webhookSecretInvalid)
        }
    }
}
