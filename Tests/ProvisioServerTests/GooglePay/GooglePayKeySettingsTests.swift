import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioOpenPGP
import SQLKit
import Testing

@testable import ProvisioServer

/// `/v1/settings/google-pay`: Google's keys are checked on the way in, each refusal with its own
/// code; the tenant's issuer key is sealed at rest and a rotation replaces it for signing.
@Suite struct GooglePayKeySettingsTests {
    static let pan = "4111111111111111"

    @Test(arguments: TestEngine.available)
    func googleKeysAreCheckedOnTheWayIn(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let google = try await GooglePayTestKeys.shared()
            let good = google.first.publicKey.armored
            func set(_ keys: [String]) async throws -> Operations.SetGooglePaySettings.Output {
                try await api.setGooglePaySettings(body: .json(.init(googleEncryptionKeys: keys)))
            }
            _ = try await set([good]).ok

            // Keys GnuPG makes and this repository's module will not: under 2048 bits, sign-only.
            let (weakPrimary, weakSubkey, signOnly) = try await GnuPGHome.with { gpg in
                let weak = try await gpg.generate("Weak <weak@google.test>", "rsa1024", usage: "default")
                let sub = try await gpg.generate("Weak sub <sub@google.test>", "rsa2048", usage: "sign")
                try await gpg.addSubkey(to: sub, "rsa1024", usage: "encr")
                let sign = try await gpg.generate("Sign only <sign@google.test>", "rsa2048", usage: "sign")
                return (
                    try await gpg.exportPublic(weak), try await gpg.exportPublic(sub), try await gpg.exportPublic(sign)
                )
            }
            let expired = try await GooglePayTestKeys.expiring(
                created: server.clock.now().addingTimeInterval(-2 * 86_400), validity: 86_400)
            let garbledArmor = "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5\n=AAAA\n-----END PGP PUBLIC KEY BLOCK-----\n"
            let cases: [([String], Components.Schemas.ErrorCode)] = [
                (["hello, Google"], .googlePayKeyNotOpenpgp),
                ([Data("not a key at all".utf8).base64EncodedString()], .googlePayKeyNotOpenpgp),
                ([garbledArmor], .googlePayKeyNotOpenpgp),
                ([google.second.armored], .googlePayKeySecret),
                ([google.second.binary.base64EncodedString()], .googlePayKeySecret),
                ([weakPrimary], .googlePayKeyTooWeak),
                ([weakSubkey], .googlePayKeyTooWeak),
                ([signOnly], .googlePayKeyCannotEncrypt),
                ([expired.publicKey.armored], .googlePayKeyExpired),
                ([String(repeating: "A", count: GoogleEncryptionKeyCheck.maximumCharacters + 1)], .googlePayKeyTooLarge),
                (Array(repeating: good, count: GoogleEncryptionKeyCheck.maximumKeys + 1), .googlePayTooManyKeys),
                ([good, good], .invalidParameter),
                ([good, google.second.publicKey.armored, signOnly], .googlePayKeyCannotEncrypt),
            ]
            for (keys, code) in cases {
                let refused = try await set(keys)
                #expect(refused.refused(400, code), "\(code): \(refused)")
                // The message names the key by position, never quotes it.
                let message = refused.refusal?.error.message ?? ""
                #expect(message.contains("google_encryption_keys[") || code == .googlePayTooManyKeys)
                #expect(refused.refusal.map { !$0.error.message.contains("BEGIN PGP") } ?? false)
            }
            // Nothing refused was stored: the first key stands.
            #expect(
                try await api.getGooglePaySettings().ok.body.json.googleEncryptionKeys.map(\.fingerprint) == [
                    google.first.fingerprint
                ])

            // At the limits: four keys, a key with CRLF line breaks, base64 with line breaks.
            let crlf = google.second.publicKey.armored.replacingOccurrences(of: "\n", with: "\r\n")
            let wrapped = google.first.publicKey.binary.base64EncodedString(options: .lineLength64Characters)
            let four = [
                crlf, try await GooglePayTestKeys.expiring(created: server.clock.now(), validity: 86_400).publicKey.armored,
                wrapped.replacingOccurrences(of: "\r\n", with: "\n"),
                try await GooglePayTestKeys.expiring(created: server.clock.now(), validity: 2 * 86_400).publicKey.armored,
            ]
            let stored = try await set(four).ok.body.json.googleEncryptionKeys
            #expect(stored.count == GoogleEncryptionKeyCheck.maximumKeys)
            #expect(stored[0].fingerprint == google.second.fingerprint && stored[2].fingerprint == google.first.fingerprint)
            #expect(stored[1].expiresAt != nil && stored[0].expiresAt == nil)
            // Every line break but the armour's is still a control character.
            let tab = try await server.raw.send(
                .put, "/v1/settings/google-pay", token: apiKey,
                body: Data(#"{"google_encryption_keys": ["a\tb"]}"#.utf8))
            #expect(tab.refused(400, .invalidRequest), "\(tab.text)")
            // An empty list removes them; Google OPCs are then refused.
            #expect(try await set([]).ok.body.json.googleEncryptionKeys.isEmpty)
            let card = try await server.makeCard(apiKey: apiKey, pan: Self.pan)
            let unconfigured = try await api.provisionGooglePay(
                path: .init(id: card.id), body: .json(.init(credentialsRequest: .init(serverSessionId: "s"))))
            #expect(unconfigured.refused(409, .googlePayNotConfigured), "\(unconfigured)")

            // Each change is audited with the keys' fingerprints.
            let events = try await api.listAuditEvents(query: .init(targetType: "tenant")).ok.body.json.data
            let updates = events.filter { $0.action == "settings.google_pay.updated" }
            #expect(updates.count == 3)
            #expect(updates.contains { $0.reason == "none" })
            #expect(updates.contains { $0.reason == google.first.fingerprint })
        }
    }

    /// The issuer key's secret half is in the database only as a vault record; the row's public
    /// half is what the API serves. A rotation makes a new key, which alone signs from then on.
    @Test(arguments: TestEngine.available)
    func theSigningKeyIsSealedAndARotationReplacesIt(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let card = try await server.makeCard(apiKey: apiKey, pan: Self.pan)
            let google = try await GooglePayTestKeys.shared()
            let first = try await api.setGooglePaySettings(
                body: .json(.init(googleEncryptionKeys: [google.first.publicKey.armored]))
            ).ok.body.json.issuerSigningKey
            #expect(try await api.getGooglePaySettings().ok.body.json.issuerSigningKey == first, "made once")
            let request = Components.Schemas.PushProvisioningRequest(credentialsRequest: .init(serverSessionId: "s-1"))
            let before = try #require(
                try await api.provisionGooglePay(path: .init(id: card.id), body: .json(request)).ok.body.json
                    .googleOpaquePaymentCard)

            // At rest: the row holds the armoured public key and a vault record, which opens (under
            // its own context only) to the binary secret key, found nowhere in the row in clear.
            let rows = try await Self.signingKeyRows(server)
            #expect(rows.count == 1)
            let row = try #require(rows.first)
            #expect(row.publicKey == first.armored && row.fingerprint == first.fingerprint)
            let sealed = try #require(row.sealed)
            #expect(sealed.hasPrefix("\(VaultRecord.formatVersion)."))
            let context = GooglePaySigningKeyRecord.vaultContext(tenantID: tenantID, fingerprint: first.fingerprint)
            let secret = try server.services.vault.openSecret(VaultRecord(serialized: sealed), context: context)
            let key = try OpenPGPSecretKey(secret)
            #expect(key.fingerprint == first.fingerprint)
            let rowText = row.publicKey + sealed
            for clear in [
                secret.base64EncodedString(), secret.map { String(format: "%02x", $0) }.joined(), key.armored, "PRIVATE KEY",
            ] {
                #expect(!rowText.contains(String(clear.prefix(48))), "secret material in clear")
            }
            #expect(throws: ProvisioError.self) {
                try server.services.vault.openSecret(VaultRecord(serialized: sealed), context: "tenant/\(tenantID)/other")
            }

            let rotated = try await api.rotateGooglePaySigningKey().ok.body.json
            #expect(rotated.issuerSigningKey.fingerprint != first.fingerprint)
            #expect(rotated.googleEncryptionKeys.map(\.fingerprint) == [google.first.fingerprint])
            let oldIssuer = try OpenPGPPublicKey(Data(first.armored.utf8))
            let newIssuer = try OpenPGPPublicKey(Data(rotated.issuerSigningKey.armored.utf8))
            let after = try #require(
                try await api.provisionGooglePay(path: .init(id: card.id), body: .json(request)).ok.body.json
                    .googleOpaquePaymentCard)
            let now = server.clock.now()
            func open(_ opc: String, _ issuer: OpenPGPPublicKey) throws -> GoogleOpaquePaymentCard {
                try GoogleOpaquePaymentCard.open(
                    opc, googleKeys: [google.first], issuers: [issuer], serverSessionID: "s-1", at: now)
            }
            #expect(try open(after, newIssuer).accountNumber == Self.pan)
            #expect(openPGPCode { try open(after, oldIssuer) } == .unknownSigner)
            #expect(openPGPCode { try open(before, newIssuer) } == .unknownSigner)
            #expect(try open(before, oldIssuer).accountNumber == Self.pan)

            // The replaced key keeps its row, without its secret.
            let afterRows = try await Self.signingKeyRows(server)
            #expect(afterRows.count == 2)
            #expect(afterRows.first { $0.fingerprint == first.fingerprint }?.sealed == nil)
            #expect(afterRows.first { $0.fingerprint == rotated.issuerSigningKey.fingerprint }?.sealed != nil)
            let events = try await api.listAuditEvents(query: .init(targetType: "google_pay_signing_key")).ok.body.json.data
            #expect(Set(events.map(\.action)) == ["google_pay.signing_key.created", "google_pay.signing_key.rotated"])
            #expect(events.contains { $0.reason == "replaces \(first.fingerprint)" })
            GooglePayUPPTests.expectNoPAN(server)
        }
    }

    /// Two first uses at once make one issuer key, not two.
    @Test(arguments: TestEngine.available)
    func concurrentFirstUsesMakeOneKey(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let fingerprints = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<3 {
                    group.addTask { try await api.getGooglePaySettings().ok.body.json.issuerSigningKey.fingerprint }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(fingerprints.count == 1)
            #expect(try await Self.signingKeyRows(server).count == 1)
        }
    }

    /// A read-only key changes nothing: it reads the issuer key once made, and does not make it.
    @Test(arguments: TestEngine.available)
    func aReadOnlyKeyDoesNotMakeTheIssuerKey(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let readOnly = try await api.createAPIKey(body: .json(.init(name: "auditor", scope: .readOnly))).created.body.json.key
            let refused = try await server.api(readOnly).getGooglePaySettings()
            #expect(refused.refused(403, .insufficientScope), "\(refused)")
            #expect(try await Self.signingKeyRows(server).isEmpty)
            let rotate = try await server.api(readOnly).rotateGooglePaySigningKey()
            #expect(rotate.refused(403, .insufficientScope), "\(rotate)")
            let made = try await api.getGooglePaySettings().ok.body.json.issuerSigningKey
            let read = try await server.api(readOnly).getGooglePaySettings().ok.body.json.issuerSigningKey
            #expect(read == made)
        }
    }

    struct SigningKeyRow {
        var fingerprint: String
        var publicKey: String
        var sealed: String?
    }

    static func signingKeyRows(_ server: TestServer) async throws -> [SigningKeyRow] {
        try await server.services.handle.read { database in
            try await database.raw("SELECT fingerprint, public_key, secret_key_vault_record FROM google_pay_signing_keys")
                .all().map { row in
                    SigningKeyRow(
                        fingerprint: try row.decode(column: "fingerprint", as: String.self),
                        publicKey: try row.decode(column: "public_key", as: String.self),
                        sealed: try row.decode(column: "secret_key_vault_record", as: String?.self))
                }
        }
    }
}
