import Crypto
import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import SQLKit
import Testing
import X509
import _CryptoExtras

@testable import ProvisioServer

/// A reissued card over MDES (`POST /v2/token/update`): the tenant sets Mastercard's encryption
/// certificate, the new expiry goes to the sandbox's MDES encrypted for its key and signed with
/// OAuth 1.0a, and the sandbox token and Wallet's pass show it. Real components: the server on
/// SQLite and PostgreSQL, the sandbox's HTTP service with its Customer Service API and its OAuth
/// gateway, on loopback, real RSA and AES.
@Suite struct MDESReissueTests {
    /// One of each for the run (RSA key generation is slow in debug builds).
    static let mastercardKey = try! SandboxMastercardEncryptionKey.generate(now: Date())
    static let verifier = try! SandboxOAuthVerifier(
        publicKeyPEM: MDESDialectTests.signingKey.publicKey.pemRepresentation, consumerKey: MDESDialectTests.consumerKey)

    static func settings(_ sandboxURL: String, certificate: String?) -> Components.Schemas.NetworkSettingsRequest {
        .init(
            dialect: .mdes, customerServiceUrl: sandboxURL + "/mdes/csapi", oauthConsumerKey: MDESDialectTests.consumerKey,
            oauthSigningKeyPem: MDESDialectTests.signingKey.pemRepresentation,
            mastercardEncryptionCertificatePem: certificate)
    }

    @Test(arguments: TestEngine.available)
    func aReissueReachesTheSandboxTokenAndThePassOverMDES(_ engine: TestEngine) async throws {
        let pan = SandboxNetworkHarness.pan
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, oauthVerifier: Self.verifier, mastercardKey: Self.mastercardKey) { h in
                let api = server.api(h.apiKey)
                // Added while the network spoke Provisio's dialect; the same network then speaks MDES.
                let added = try #require(await h.network.outcome(sessionID: try await h.add().sessionID))
                let serial = try #require(added.pass?.serialNumber)

                // Without Mastercard's certificate: refused, named, and nothing reaches MDES.
                _ = try await api.setNetworkSettings(body: .json(Self.settings(h.sandboxURL, certificate: nil))).ok
                let unset = try await api.updateCard(
                    path: .init(id: h.cardID), body: .json(.init(expiryMonth: 2, expiryYear: 2032))
                ).ok.body.json
                #expect(unset.tokenUpdates?.map(\.outcome) == [.failed])
                #expect(unset.tokenUpdates?.first?.errorCode == .networkRefused)
                #expect(server.logs.count(containing: "MDES token update") == 0)
                #expect(await h.wallet.pass(serialNumber: serial)?.details.expiry?.slashed == "12/30")

                let set = try await api.setNetworkSettings(
                    body: .json(Self.settings(h.sandboxURL, certificate: Self.mastercardKey.certificatePEM))
                ).ok.body.json
                #expect(set.mastercardEncryptionKeyFingerprint == Self.mastercardKey.key.publicKeyFingerprint)
                #expect(try await api.getNetworkSettings().ok.body.json == set)

                let reissued = try await api.updateCard(
                    path: .init(id: h.cardID), body: .json(.init(expiryMonth: 3, expiryYear: 2033))
                ).ok.body.json
                #expect(reissued.tokenUpdates?.map(\.outcome) == [.updated], "\(String(describing: reissued.tokenUpdates))")
                #expect(await h.wallet.pass(serialNumber: serial)?.details.expiry?.slashed == "03/33")
                #expect(await h.network.token(networkTokenRef: added.networkTokenRef)?.fundingExpiry.slashed == "03/33")
                #expect(server.logs.count(containing: "MDES token update") == 1)
                let trail = try await api.listAuditEvents(query: .init(targetType: "token", targetId: added.issuerTokenID))
                    .ok.body.json.data.map(\.action)
                #expect(trail.first == "token.card_details_updated")

                // MDES's token update carries no name: that reissue is refused at the network.
                let named = try await api.updateCard(
                    path: .init(id: h.cardID), body: .json(.init(cardholderName: "Jane Q Appleseed"))
                ).ok.body.json
                #expect(named.tokenUpdates?.map(\.outcome) == [.failed])
                #expect(named.tokenUpdates?.first?.errorCode == .networkRefused)

                // The PAN: in no answer, no log line, no database row.
                for answer in server.answers.all {
                    #expect(!answer.text.contains(pan), "PAN in \(answer.operationID)")
                }
                #expect(!server.logs.text.contains(pan), "PAN in the logs")
                let stored = try await Self.databaseText(server)
                #expect(stored.count > 1000, "the database was read")
                #expect(!stored.contains(pan), "PAN in the database")
            }
        }
    }

    @Test func mastercardsCertificateIsCheckedOnTheWay() async throws {
        let certificate = Self.mastercardKey.certificatePEM
        let expired = try Self.certificate(bits: 2048, notValidAfter: Date() - 86_400)
        let small = try Self.certificate(bits: 1024, notValidAfter: Date() + 86_400)
        let ec = P256.Signing.PrivateKey().publicKey.pemRepresentation
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let url = "http://127.0.0.1:9"
            for bad in [
                "not a certificate", String(certificate.dropLast(60)), certificate + certificate, expired, small, ec,
                MDESDialectTests.signingKey.publicKey.pemRepresentation,
            ] {
                let refused = try await api.setNetworkSettings(body: .json(Self.settings(url, certificate: bad)))
                #expect(refused.refused(400, .mastercardEncryptionCertificateInvalid), "\(refused)")
            }
            // Only with the mdes dialect.
            let provisio = try await api.setNetworkSettings(
                body: .json(.init(url: url, apiKey: "prv_connector_key_1", mastercardEncryptionCertificatePem: certificate)))
            #expect(provisio.refused(400, .invalidParameter), "\(provisio)")
            #expect(try await api.getNetworkSettings().ok.body.json.source == .none)
            // A refusal does not repeat what was sent.
            let line = try #require(certificate.split(separator: "\n").dropFirst().first.map(String.init))
            #expect(!server.answers.all.contains { $0.text.contains(line) || $0.text.contains("not a certificate") })

            // Stored as given (it is public), shown by its key's fingerprint, gone with the dialect.
            let set = try await api.setNetworkSettings(body: .json(Self.settings(url, certificate: certificate))).ok.body.json
            #expect(set.mastercardEncryptionKeyFingerprint == Self.mastercardKey.key.publicKeyFingerprint)
            _ = try await api.setNetworkSettings(body: .json(.init(url: url, apiKey: "prv_connector_key_1"))).ok
            let cleared = try await server.services.handle.read { database in
                try await database.raw("SELECT network_mastercard_encryption_certificate AS pem FROM tenant_settings").first()
                    .map { try $0.decode(column: "pem", as: String?.self) }
            }
            #expect(cleared == .some(nil))
        }
    }

    /// Every row of every table as text (PostgreSQL), or the SQLite files' bytes.
    static func databaseText(_ server: TestServer) async throws -> String {
        if case .sqlite(let path) = server.database {
            var files = Data()
            for suffix in ["", "-wal", "-shm"] {
                files.append((try? Data(contentsOf: URL(fileURLWithPath: path + suffix))) ?? Data())
            }
            return String(decoding: files, as: UTF8.self)
        }
        return try await server.services.handle.read { database in
            let tables = try await database.raw(
                "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()"
            ).all().map { try $0.decode(column: "name", as: String.self) }
            var text = ""
            for table in tables {
                for row in try await database.raw("SELECT row_to_json(t)::text AS row FROM \(ident: table) t").all() {
                    text += try row.decode(column: "row", as: String.self) + "\n"
                }
            }
            return text
        }
    }

    /// A self-signed RSA certificate for the refusals.
    static func certificate(bits: Int, notValidAfter: Date) throws -> String {
        let key = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: bits))
        let name = try DistinguishedName { CommonName("Not Mastercard") }
        return try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: notValidAfter - 86_400 * 30,
            notValidAfter: notValidAfter, issuer: name, subject: name, signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: .init(), issuerPrivateKey: .init(key)
        ).serializeAsPEM().pemString
    }
}
