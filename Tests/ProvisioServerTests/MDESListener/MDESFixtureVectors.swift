import Foundation
import ProvisioCrypto

@testable import ProvisioServer

/// Tests/ProvisioCryptoTests/Fixtures/mdes-payload-vectors.json: payloads Python's
/// `cryptography` encrypted from the MDES document, and the RSA keys they are for.
struct MDESFixtureVectors: Decodable {
    struct Key: Decodable {
        let name: String
        let privateKeyPKCS8PEM: String
    }

    struct Case: Decodable {
        let name: String
        let payload: [String: String]
    }

    struct BadCase: Decodable {
        let name: String
        let payload: [String: String]
    }

    let keys: [Key]
    let cases: [Case]
    let bad: [BadCase]

    static func load() throws -> MDESFixtureVectors {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("ProvisioCryptoTests/Fixtures/mdes-payload-vectors.json")
        return try JSONDecoder().decode(MDESFixtureVectors.self, from: Data(contentsOf: url))
    }

    /// Makes a fixture key one of the tenant's live keys, sealed as `tenants mdes-key` seals one.
    static func install(_ pem: String, tenantID: String, server: TestServer) async throws {
        let key = try MDESIssuerKey(privateKeyPEM: pem)
        let sealed = try server.services.vault.seal(
            secret: Data(pem.utf8),
            context: MDESIssuerKeyRecord.vaultContext(tenantID: tenantID, fingerprint: key.publicKeyFingerprint))
        _ = try await SQLProvisioStore(handle: server.services.handle).addMDESIssuerKey(
            MDESIssuerKeyRecord(
                tenantID: tenantID, fingerprint: key.publicKeyFingerprint, keySize: key.keySizeInBits,
                publicKeyPEM: try key.publicKeyPEM, privateKeyVaultRecord: sealed.serialized, createdAt: server.clock.now()),
            onlyIfNoneLive: false)
        // Added past MDESKeyService: the listener's cache must hear of it.
        MDESKeyCache.shared.invalidate(tenantID: tenantID)
    }
}
