import Crypto
import Foundation
import ProvisioCore

/// What a webhook receiver does (and what Provisio's demo receiver and tests do): checks the
/// timestamp is within the tolerance and that one of the `v1,` signatures matches, in constant
/// time.
public struct WebhookVerifier: Sendable {
    public static let defaultTolerance: TimeInterval = 5 * 60
    let signer: WebhookSigner
    let tolerance: TimeInterval

    public init(secret: String, tolerance: TimeInterval = defaultTolerance) throws {
        self.signer = try WebhookSigner(secret: secret)
        self.tolerance = tolerance
    }

    public func verify(id: String, timestamp: String, signatureHeader: String, body: Data, at now: Date) throws {
        guard let seconds = Int64(timestamp) else {
            throw ProvisioError(.webhookSignatureInvalid, "webhook-timestamp is not a number of seconds.")
        }
        guard abs(now.timeIntervalSince1970 - Double(seconds)) <= tolerance else {
            throw ProvisioError(.webhookTimestampOutOfTolerance, "webhook-timestamp is too far from now.")
        }
        let expected = Data(signer.signature(id: id, timestamp: seconds, body: body).utf8)
        let candidates = signatureHeader.split(separator: " ").map { Data($0.utf8) }
        guard candidates.contains(where: { ConstantTime.equal($0, expected) }) else {
            throw ProvisioError(.webhookSignatureInvalid, "No webhook-signature matches the body.")
        }
    }
}
