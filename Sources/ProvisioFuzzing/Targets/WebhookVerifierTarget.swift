import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto

/// The Standard Webhooks receiver: `WebhookVerifier(secret:)` then `verify(id:timestamp:
/// signatureHeader:body:at:)` at 2026-01-01T00:00:00Z.
///
/// Input: four lines — the secret text, the `webhook-id`, the `webhook-timestamp`, the
/// `webhook-signature` header — then the body (the rest, newlines included). Missing lines are
/// empty; bytes that are not UTF-8 reach the header strings as U+FFFD.
///
/// Accepted: the timestamp is a number within the tolerance of now; the secret is `whsec_` and
/// base64 of 24–64 bytes; one space-separated token of the header is `v1,` and the base64
/// HMAC-SHA256 of `id.timestamp.body`, computed here independently; and the same delivery is
/// refused with one more body byte, with another key, or checked too long after its timestamp.
/// Refused: the common checks, with the seeds' secrets as secrets.
public struct WebhookVerifierTarget: FuzzTarget {
    public let name = "webhook"
    public var seedSecrets = SecretFragments()

    /// The fixed "now" of every run: 2026-01-01T00:00:00Z.
    public static let now: Int64 = 1_767_225_600
    public static let codes: Set<String> = [
        "webhook_secret_invalid", "webhook_signature_invalid", "webhook_timestamp_out_of_tolerance",
    ]

    public init() {}

    public var dictionary: [[UInt8]] {
        [
            "whsec_", "whsec", "v1,", " v1,", "v1a,", "v2,", "v1=", ",", " ", "  ", "\n", "\r", "=", "==", "-", "_", "+",
            "/", "1767225600", "1767225900", "1767225901", "1767225299", "+1767225600", "01767225600", " 1767225600",
            "1767225600.0", "msg_", "msg_2ZL1yqPQbUOr6tQ1",
        ].map { Array($0.utf8) }
    }

    struct Delivery {
        var secret: String
        var id: String
        var timestamp: String
        var signatureHeader: String
        var body: Data
    }

    static func parse(_ input: [UInt8]) -> Delivery {
        let parts = input.split(separator: UInt8(ascii: "\n"), maxSplits: 4, omittingEmptySubsequences: false)
        func text(_ index: Int) -> String {
            index < parts.count ? String(decoding: parts[index], as: UTF8.self) : ""
        }
        return Delivery(
            secret: text(0), id: text(1), timestamp: text(2), signatureHeader: text(3),
            body: parts.count > 4 ? Data(parts[4]) : Data())
    }

    public func secrets(inSeed seed: [UInt8]) -> [[UInt8]] {
        // The key part of the secret: `whsec_` itself is named in messages.
        let secret = Self.parse(seed).secret
        return secret.hasPrefix(WebhookSigner.secretPrefix)
            ? [Array(secret.utf8.dropFirst(WebhookSigner.secretPrefix.utf8.count))] : []
    }

    public func withSeedSecrets(_ secrets: SecretFragments) -> WebhookVerifierTarget {
        var copy = self
        copy.seedSecrets = secrets
        return copy
    }

    public func run(input: [UInt8]) -> FuzzOutcome {
        let delivery = Self.parse(input)
        let now = Date(timeIntervalSince1970: TimeInterval(Self.now))
        let verifier: WebhookVerifier
        do {
            verifier = try WebhookVerifier(secret: delivery.secret)
            try verifier.verify(
                id: delivery.id, timestamp: delivery.timestamp, signatureHeader: delivery.signatureHeader,
                body: delivery.body, at: now)
        } catch {
            return FuzzChecks.refusal(error, codes: Self.codes, secrets: seedSecrets)
        }

        guard let seconds = Int64(delivery.timestamp),
            abs(Double(seconds) - Double(Self.now)) <= WebhookVerifier.defaultTolerance
        else { return .violation("accepted a timestamp that is not a number within the tolerance") }
        guard delivery.secret.hasPrefix(WebhookSigner.secretPrefix),
            let key = Data(base64Encoded: String(delivery.secret.dropFirst(WebhookSigner.secretPrefix.count))),
            (24...64).contains(key.count)
        else { return .violation("accepted a secret that is not whsec_ and base64 of 24 to 64 bytes") }

        var message = Data("\(delivery.id).\(seconds).".utf8)
        message.append(delivery.body)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
        let expected = "v1," + Data(mac).base64EncodedString()
        guard delivery.signatureHeader.split(separator: " ").contains(where: { $0 == expected }) else {
            return .violation("accepted a header without the delivery's v1 signature")
        }

        // The same delivery, changed in one way, is refused.
        var longerBody = delivery.body
        longerBody.append(0x00)
        if let outcome = expectRefusal(
            "one more body byte", code: "webhook_signature_invalid",
            {
                try verifier.verify(
                    id: delivery.id, timestamp: delivery.timestamp, signatureHeader: delivery.signatureHeader,
                    body: longerBody, at: now)
            })
        {
            return outcome
        }
        var otherKey = key
        otherKey[otherKey.startIndex] ^= 0x01
        if let outcome = expectRefusal(
            "another key", code: "webhook_signature_invalid",
            {
                try WebhookVerifier(secret: WebhookSigner.secretPrefix + otherKey.base64EncodedString()).verify(
                    id: delivery.id, timestamp: delivery.timestamp, signatureHeader: delivery.signatureHeader,
                    body: delivery.body, at: now)
            })
        {
            return outcome
        }
        let late = Date(timeIntervalSince1970: TimeInterval(seconds) + WebhookVerifier.defaultTolerance + 1)
        if let outcome = expectRefusal(
            "a check too long after the timestamp", code: "webhook_timestamp_out_of_tolerance",
            {
                try verifier.verify(
                    id: delivery.id, timestamp: delivery.timestamp, signatureHeader: delivery.signatureHeader,
                    body: delivery.body, at: late)
            })
        {
            return outcome
        }
        return .accepted
    }

    /// nil when `verify` throws a `ProvisioError` with `code`, else the violation.
    private func expectRefusal(_ change: String, code: String, _ verify: () throws -> Void) -> FuzzOutcome? {
        do {
            try verify()
            return .violation("accepted the delivery with \(change)")
        } catch let error as ProvisioError where error.code.rawValue == code {
            return nil
        } catch {
            return .violation("with \(change), expected \(code), got \(error)")
        }
    }
}
