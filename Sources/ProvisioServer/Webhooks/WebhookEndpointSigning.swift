import Foundation
import ProvisioCrypto

/// The signers of a webhook to `endpoint` sent at `time`: its current secret, and during a
/// rotation's overlap the previous one too (both signatures go in `webhook-signature`).
enum WebhookEndpointSigning {
    static func headers(for endpoint: WebhookEndpointRecord, vault: PANVault, id: String, body: Data, at time: Date) throws
        -> [(name: String, value: String)]
    {
        let context = WebhookEndpointRecord.vaultContext(tenantID: endpoint.tenantID, endpointID: endpoint.id)
        let signers = try endpoint.signingSecretRecords(at: time).map { record in
            let secret = try vault.openSecret(VaultRecord(serialized: record), context: context)
            return try WebhookSigner(secret: String(decoding: secret, as: UTF8.self))
        }
        return WebhookSigner.headers(signers: signers, id: id, timestamp: Int64(time.timeIntervalSince1970), body: body)
    }
}
