import Crypto
import Foundation
import Logging
import ProvisioCore
import ProvisioCrypto
import ProvisioServer
import SQLKit
import Testing
import _CryptoExtras

/// `provisio tenants mdes-key` as an issuer runs it, on SQLite and PostgreSQL: a key to register
/// with Mastercard, the same key again without --rotate, a second key with it, both decrypting
/// what MDES seals to them, the private halves only ever sealed in the database, a retirement,
/// and the vault's own key rotation carrying the MDES keys along.
@Suite struct MDESKeyCLITests {
    static var engines: [String] {
        ["sqlite"] + (ProcessInfo.processInfo.environment["PROVISIO_TEST_POSTGRES_URL"]?.isEmpty == false ? ["postgres"] : [])
    }

    /// What the command printed.
    struct PrintedKey: Equatable {
        var pem: String
        var fingerprint: String

        var bits: Int {
            get throws { try _RSA.Encryption.PublicKey(pemRepresentation: pem).keySizeInBits }
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: engines)
    func createRotateAndRetire(_ engine: String) async throws {
        let base = CLIRunner.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let postgres = engine == "postgres" ? try await ThrowawayPostgres.create() : nil
        do {
            try await Self.scenario(base: base, database: postgres?.url ?? base + "/p.sqlite", sqlite: postgres == nil)
        } catch {
            await postgres?.drop()
            throw error
        }
        await postgres?.drop()
    }

    static func scenario(base: String, database: String, sqlite: Bool) async throws {
        let keysDir = base + "/keys"
        #expect(try await CLIRunner.run(["keys", "init", "--dir", keysDir]).status == 0)
        let created = try await CLIRunner.run(["tenants", "create", "--name", "MDES Bank", "--database", database])
        let tenantID = try #require(try APIKeysCLITests.json(created.stdout)["tenant_id"])
        let command = ["tenants", "mdes-key", "--tenant-id", tenantID, "--database", database, "--keys", keysDir]

        // The first key: 2048 bits by default, its fingerprint SHA-256 of the public key's DER.
        let first = try await key(command)
        #expect(try first.bits == 2048)
        let firstDER = try _RSA.Encryption.PublicKey(pemRepresentation: first.pem).derRepresentation
        #expect(first.fingerprint == BinaryText.lowercaseHex(SHA256.hash(data: firstDER)))

        // Without --rotate: the same key again, nothing made; another size is refused.
        let again = try await CLIRunner.run(command)
        #expect(again.status == 0 && again.stderr.contains("already has"), "\(again.stderr)")
        #expect(try printed(again.stdout) == first)
        let otherSize = try await CLIRunner.run(command + ["--bits", "3072"])
        #expect(otherSize.status == 2 && otherSize.stderr.hasPrefix("error: mdes_key_exists:"), "\(otherSize.stderr)")

        // --rotate: a second key beside the first, and both decrypt what is sealed to them.
        let second = try await key(command + ["--rotate", "--bits", "3072"])
        #expect(try second.bits == 3072 && second.fingerprint != first.fingerprint)
        let newest = try await CLIRunner.run(command)
        #expect(try printed(newest.stdout) == second)  // the newest is the one printed

        let plaintext = Data(#"{"cardAccountData":{"accountNumber":"5412345678901234","expiryMonth":"12"}}"#.utf8)
        let payloads = [try seal(plaintext, for: first), try seal(plaintext, for: second)]
        let vault = { PANVault(keyring: try KeyDirectory(path: keysDir).loadKeyring()) }
        let live = try await withStore(database) { try await $0.liveMDESIssuerKeys(tenantID: tenantID, unsealedWith: vault()) }
        #expect(live.map(\.publicKeyFingerprint) == [second.fingerprint, first.fingerprint])
        let decrypter = try MDESPayloadDecrypter(keys: live)
        for (payload, key) in zip(payloads, [first, second]) {
            let opened = try decrypter.decrypt(payload)
            #expect(opened.plaintext == plaintext && opened.keyFingerprint == key.fingerprint)
        }

        // The private halves are nowhere in clear: not as PEM, not as DER.
        let stored = try await storedBytes(database, sqlite: sqlite)
        // The search sees the table: the public key, stored in clear, is found.
        #expect(stored.range(of: Data(try pemBodyLines(first.pem)[1].utf8)) != nil)
        for key in live {
            let pem = try key.privateKeyPEM
            for line in try pemBodyLines(pem) { #expect(stored.range(of: Data(line.utf8)) == nil) }
            let der = try #require(Data(base64Encoded: try pemBodyLines(pem).joined()))
            for start in stride(from: 0, to: der.count - 32, by: 61) {
                #expect(stored.range(of: der.subdata(in: start..<start + 32)) == nil)
            }
        }

        // Retiring the first key: the second alone decrypts; the last live key stays.
        let retired = try await CLIRunner.run(command + ["--retire", first.fingerprint.uppercased()])
        #expect(retired.status == 0, "\(retired.stderr)")
        #expect(try APIKeysCLITests.json(retired.stdout)["retired_fingerprint"] == first.fingerprint)
        let remaining = try await withStore(database) {
            try await $0.liveMDESIssuerKeys(tenantID: tenantID, unsealedWith: vault())
        }
        #expect(remaining.map(\.publicKeyFingerprint) == [second.fingerprint])
        #expect(code { try MDESPayloadDecrypter(keys: remaining).decrypt(payloads[0]) } == "mdes_key_unknown")
        #expect(try MDESPayloadDecrypter(keys: remaining).decrypt(payloads[1]).plaintext == plaintext)
        let last = try await CLIRunner.run(command + ["--retire", second.fingerprint])
        #expect(last.status == 2 && last.stderr.hasPrefix("error: mdes_key_last_live:"), "\(last.stderr)")
        let gone = try await CLIRunner.run(command + ["--retire", first.fingerprint])
        #expect(gone.status == 2 && gone.stderr.hasPrefix("error: mdes_key_not_found:"), "\(gone.stderr)")
        let records = try await withStore(database) { try await $0.mdesIssuerKeys(tenantID: tenantID) }
        #expect(records.map(\.fingerprint) == [second.fingerprint, first.fingerprint])
        #expect(records[1].retiredAt != nil && records[1].privateKeyVaultRecord == nil)

        // A vault key rotation carries the live MDES key: the old vault key cannot be retired
        // before a rewrap moves it, and the key still opens afterwards.
        let oldKEK = try KeyDirectory(path: keysDir).loadKeyring().active.id
        #expect(try await CLIRunner.run(["keys", "rotate", "--dir", keysDir]).status == 0)
        let early = try await CLIRunner.run(["keys", "retire", "--dir", keysDir, "--key-id", oldKEK, "--database", database])
        #expect(early.status == 2 && early.stderr.hasPrefix("error: vault_key_in_use:"), "\(early.stderr)")
        let rewrap = try await CLIRunner.run(["keys", "rewrap", "--dir", keysDir, "--database", database])
        #expect(rewrap.stdout.contains("1 MDES issuer keys"), "\(rewrap.stdout)")
        let retire = try await CLIRunner.run(["keys", "retire", "--dir", keysDir, "--key-id", oldKEK, "--database", database])
        #expect(retire.status == 0, "\(retire.stderr)")
        let rewrapped = try await withStore(database) {
            try await $0.liveMDESIssuerKeys(tenantID: tenantID, unsealedWith: vault())
        }
        #expect(try MDESPayloadDecrypter(keys: rewrapped).decrypt(payloads[1]).plaintext == plaintext)

        // The audit log names the command line for each change.
        let log = try await withStore(database) {
            try await $0.auditEvents(tenantID: tenantID, filter: AuditFilter(targetType: "mdes_key"), cursor: nil, limit: 10)
        }
        #expect(log.items.map(\.action) == ["mdes_key.retired", "mdes_key.created", "mdes_key.created"])
        #expect(log.items.allSatisfy { $0.actor == .commandLine })
    }

    @Test func badInputGetsAStableCodeAndChangesNothing() async throws {
        let base = CLIRunner.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let (keysDir, database) = (base + "/keys", base + "/p.sqlite")
        #expect(try await CLIRunner.run(["keys", "init", "--dir", keysDir]).status == 0)
        let created = try await CLIRunner.run(["tenants", "create", "--name", "MDES Bank", "--database", database])
        let tenantID = try #require(try APIKeysCLITests.json(created.stdout)["tenant_id"])
        let command = ["tenants", "mdes-key", "--database", database, "--keys", keysDir]

        let refusals: [([String], String)] = [
            (["--tenant-id", "ten_nope"], "tenant_not_found"),
            (["--tenant-id", tenantID, "--bits", "4096"], "mdes_key_size_unsupported"),
            (["--tenant-id", tenantID, "--bits", "1024"], "mdes_key_size_unsupported"),
            (["--tenant-id", tenantID, "--bits", "big"], "mdes_key_size_unsupported"),
            (["--tenant-id", tenantID, "--rotate", "--retire", "00"], "invalid_argument"),
            (["--tenant-id", tenantID, "--retire", "00"], "mdes_key_not_found"),
            (["--tenant-id", tenantID, "--keys", base + "/none"], "keys_missing"),
        ]
        for (arguments, code) in refusals {
            let result = try await CLIRunner.run(command + arguments)
            #expect(result.status == 2 && result.stderr.hasPrefix("error: \(code):"), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let stored = try await Self.withStore(database) { try await $0.mdesIssuerKeys(tenantID: tenantID) }
        #expect(stored.isEmpty)
    }

    // MARK: Helpers

    static func key(_ arguments: [String]) async throws -> PrintedKey {
        let result = try await CLIRunner.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try printed(result.stdout)
    }

    static func printed(_ stdout: String) throws -> PrintedKey {
        let json = try APIKeysCLITests.json(stdout)
        #expect(Set(json.keys) == ["public_key_pem", "public_key_fingerprint"])
        return PrintedKey(pem: try #require(json["public_key_pem"]), fingerprint: try #require(json["public_key_fingerprint"]))
    }

    /// What MDES sends: a one-time AES-256 key wrapped with RSA-OAEP-SHA256, the data in AES-GCM.
    static func seal(_ plaintext: Data, for key: PrintedKey) throws -> MDESEncryptedPayload {
        let aesKey = SymmetricKey(size: .bits256)
        let wrapped = try _RSA.Encryption.PublicKey(pemRepresentation: key.pem)
            .encrypt(aesKey.withUnsafeBytes { Data($0) }, padding: .PKCS1_OAEP_SHA256)
        let iv = Data((0..<12).map { _ in UInt8.random(in: 0...255) })
        let aad = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let sealed = try AES.GCM.seal(plaintext, using: aesKey, nonce: AES.GCM.Nonce(data: iv), authenticating: aad)
        return MDESEncryptedPayload(
            encryptedData: BinaryText.lowercaseHex(sealed.ciphertext), encryptedKey: BinaryText.lowercaseHex(wrapped),
            publicKeyFingerprint: key.fingerprint, oaepHashingAlgorithm: "SHA256", iv: BinaryText.lowercaseHex(iv),
            algorithmCipherMode: "GCM", tag: BinaryText.lowercaseHex(sealed.tag), aad: BinaryText.lowercaseHex(aad))
    }

    /// The stable code a throwing call fails with, or nil.
    static func code(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as ProvisioError {
            return error.code.rawValue
        } catch {
            return "unexpected: \(error)"
        }
    }

    static func pemBodyLines(_ pem: String) throws -> [String] {
        let lines = pem.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("-----") }
        try #require(lines.count > 2)
        return lines
    }

    static func withStore<T: Sendable>(_ database: String, _ body: (SQLProvisioStore) async throws -> T) async throws -> T {
        let handle = try await DatabaseConnector.connect(try DatabaseLocation(database), logger: Logger(label: "t"))
        do {
            let result = try await body(SQLProvisioStore(handle: handle))
            await handle.shutdown()
            return result
        } catch {
            await handle.shutdown()
            throw error
        }
    }

    /// Everything the database holds of the keys: the SQLite file and its journals byte for byte;
    /// on PostgreSQL, every column of the key table and of the audit log as text.
    static func storedBytes(_ database: String, sqlite: Bool) async throws -> Data {
        if sqlite {
            return try ["", "-wal", "-journal"].reduce(into: Data()) { bytes, suffix in
                if let file = FileManager.default.contents(atPath: database + suffix) { bytes.append(file) }
            }
        }
        return try await withStore(database) { store in
            try await store.handle.read { db in
                var bytes = Data()
                for table in ["mdes_issuer_keys", "audit_events"] {
                    for row in try await db.raw("SELECT * FROM \(unsafeRaw: table)").all() {
                        for column in row.allColumns {
                            if let text = try? row.decode(column: column, as: String?.self) { bytes.append(Data(text.utf8)) }
                        }
                    }
                }
                return bytes
            }
        }
    }
}
