import Foundation
import NIOCore
import ProvisioCrypto
import ProvisioSandbox

/// `authorizeService` bodies for the MDES benchmark, built before a run: each with its own
/// `requestId` and `tokenUniqueReference` (the listener refuses a repeated id and records a token
/// per decision) and its own payload, sealed by the sandbox's MDES encryptor as MDES would (a
/// fresh AES key wrapped for the tenant's RSA key), so every request costs the server one RSA
/// private-key operation. The wallet's data asks for green: scores 5, `APPROVED`.
struct MDESAuthorizeRequests: Sendable {
    let encryptor: MDESPayloadEncryptor
    /// The card's number and expiry (MM, YY) as the payload carries them.
    let pan: String
    let expiryMonth: String
    let expiryYear: String
    /// Keeps ids unique across runs on the same database.
    let runID = String(UInt32.random(in: .min ... .max), radix: 16)

    /// `count` fresh bodies, numbered from `first` (pools of one benchmark must not overlap),
    /// sealed in parallel on every core.
    func pool(first: Int, count: Int) async throws -> RequestBodyPool {
        let validUntil = ISO8601DateFormatter().string(from: Date().addingTimeInterval(30 * 60))
        let plaintext = try Self.encoder.encode(
            Plaintext(
                cardAccountData: .init(accountNumber: pan, expiryMonth: expiryMonth, expiryYear: expiryYear),
                dataValidUntilTimestamp: validUntil, source: "ACCOUNT_ADDED_VIA_APPLICATION"))
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let chunk = (count + workers - 1) / workers
        let bodies = try await withThrowingTaskGroup(of: (Int, [ByteBuffer]).self) { group in
            for worker in 0..<workers {
                let range = (first + worker * chunk)..<min(first + count, first + (worker + 1) * chunk)
                group.addTask {
                    (worker, try range.map { try body(number: $0, plaintext: plaintext) })
                }
            }
            return try await group.reduce(into: [(Int, [ByteBuffer])]()) { $0.append($1) }
        }
        return RequestBodyPool(bodies.sorted { $0.0 < $1.0 }.flatMap(\.1))
    }

    func body(number: Int, plaintext: Data) throws -> ByteBuffer {
        let envelope = try encryptor.seal(plaintext)
        let request = Request(
            requestId: "bench-\(runID)-\(number)", services: ["DIGITIZATION"],
            fundingAccountInfo: .init(
                tokenUniqueReference: "DWSPMCBENCH\(runID)X\(number)",
                encryptedPayload: .init(
                    encryptedData: envelope.encryptedData, encryptedKey: envelope.encryptedKey,
                    publicKeyFingerprint: envelope.publicKeyFingerprint, oaepHashingAlgorithm: envelope.oaepHashingAlgorithm,
                    iv: envelope.iv, algorithmCipherMode: envelope.algorithmCipherMode, tag: envelope.tag, aad: envelope.aad)),
            correlationId: String(format: "%014d", number), tokenType: "EMBEDDED_SE", tokenRequestorId: "50110030273",
            walletId: "103", deviceInfo: .init(formFactor: "PHONE", osName: "IOS"),
            walletProviderDecisioningInfo: .init(
                recommendedDecision: "APPROVED", recommendationStandardVersion: "2", deviceScore: "5", accountScore: "5"))
        return ByteBuffer(data: try Self.encoder.encode(request))
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    // The document's names (docs/mdes.md), only the fields this request uses.

    private struct Plaintext: Encodable {
        struct CardAccountData: Encodable {
            var accountNumber: String
            var expiryMonth: String
            var expiryYear: String
        }

        var cardAccountData: CardAccountData
        var dataValidUntilTimestamp: String
        var source: String
    }

    private struct Request: Encodable {
        struct FundingAccountInfo: Encodable {
            var tokenUniqueReference: String
            var encryptedPayload: EncryptedPayload
        }

        struct EncryptedPayload: Encodable {
            var encryptedData: String
            var encryptedKey: String
            var publicKeyFingerprint: String
            var oaepHashingAlgorithm: String?
            var iv: String
            var algorithmCipherMode: String
            var tag: String?
            var aad: String?
        }

        struct DeviceInfo: Encodable {
            var formFactor: String
            var osName: String
        }

        struct DecisioningInfo: Encodable {
            var recommendedDecision: String
            var recommendationStandardVersion: String
            var deviceScore: String
            var accountScore: String
        }

        var requestId: String
        var services: [String]
        var fundingAccountInfo: FundingAccountInfo
        var correlationId: String
        var tokenType: String
        var tokenRequestorId: String
        var walletId: String
        var deviceInfo: DeviceInfo
        var walletProviderDecisioningInfo: DecisioningInfo
    }
}
