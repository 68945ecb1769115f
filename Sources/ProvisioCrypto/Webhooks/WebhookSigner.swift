import Crypto
import Foundation
import ProvisioCore

/// Standard Webhooks signing: `webhook-signature: v1,<base64 HMAC-SHA256(id.timestamp.body)>`
/// keyed with the secret's bytes. Secrets look like `whsec_<base64 of 32 random bytes>`.
public struct WebhookSigner: Sendable {
    public static let secretPrefix = "whsec_"
    let key: SymmetricKey

    public init(secret: String) throws {
        guard secret.hasPrefix(Self.secretPrefix),
            let bytes = Data(base64Encoded: String(secret.dropFirst(Self.secretPrefix.count))), (24...64).contains(bytes.count)
        else {
            throw ProvisioError(.webhookSecretInvalid, "A webhook secret is whsec_ followed by base64 of 24 to 64 bytes.")
        }
        self.key = SymmetricKey(data: bytes)
    }

    public static func generateSecret() -> String {
        secretPrefix + SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() }
    }

    /// The `webhook-signature` header value for one delivery.
    public func signature(id: String, timestamp: Int64, body: Data) -> String {
        var message = Data("\(id).\(timestamp).".utf8)
        message.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: key)
        return "v1," + Data(mac).base64EncodedString()
    }

    /// The three Standard Webhooks headers.
    public func headers(id: String, timestamp: Int64, body: Data) -> [(name: String, value: String)] {
        Self.headers(signers: [self], id: id, timestamp: timestamp, body: body)
    }

    /// The headers of a webhook signed with several secrets (a rotation's overlap): one `v1,`
    /// signature per secret, separated by spaces, so a receiver holding either one verifies it.
    public static func headers(signers: [WebhookSigner], id: String, timestamp: Int64, body: Data) -> [(
        name: String, value: String
    )] {
        [
            ("webhook-id", id), ("webhook-timestamp", String(timestamp)),
            (
                "webhook-signature",
                signers.map { $0.signature(id: id, timestamp: timestamp, body: body) }.joined(separator: " ")
            ),
        ]
    }
}
