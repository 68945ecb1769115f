import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto
import Testing
import _CryptoExtras

/// `provisio keys init`, `provisio sandbox ca` and `provisio apple-payload` end to end: the
/// binary seals, the sandbox leaf key opens, the TAV public key verifies.
@Suite struct ApplePayloadCLITests {
    let pan = "4111111111111111"

    struct Setup {
        let base: String
        let keys: String
        let ca: String
        let root: String
    }

    func setUp() async throws -> Setup {
        let base = CLIRunner.temporaryDirectory()
        let keys = base + "/keys"
        let ca = base + "/ca"
        let initResult = try await CLIRunner.run(["keys", "init", "--dir", keys])
        #expect(initResult.status == 0, "\(initResult.stderr)")
        let caResult = try await CLIRunner.run(["sandbox", "ca", "--out", ca])
        #expect(caResult.status == 0, "\(caResult.stderr)")
        return Setup(base: base, keys: keys, ca: ca, root: ca + "/root.pem")
    }

    func chain(_ file: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as! [String: Any]
        return object["certificates"] as! [String]
    }

    func request(certificates: [String], scheme: String = "ECC_V2", pan: String? = nil, nonce: String = "3f2a9107") throws -> Data
    {
        try JSONSerialization.data(withJSONObject: [
            "primaryAccountNumber": pan ?? self.pan, "expiration": "12/30", "name": "Jane Appleseed",
            "certificates": certificates, "nonce": nonce, "nonceSignature": "MEUCIQD4", "encryptionScheme": scheme,
        ])
    }

    func response(_ stdout: String) throws -> [String: String] {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as! [String: String]
    }

    func verifyTAV(_ activationData: String, keys: String) throws {
        let pem = try String(contentsOfFile: keys + "/tav-public-key.pem", encoding: .utf8)
        try TAVVerifier(publicKey: P256.Signing.PublicKey(pemRepresentation: pem)).verify(
            activationData: activationData, pan: PrimaryAccountNumber(pan), expiry: CardExpiry(month: 12, year: 2030),
            at: Date())
    }

    @Test func eccV2PayloadOpensWithTheSandboxLeafKey() async throws {
        let setup = try await setUp()
        defer { try? FileManager.default.removeItem(atPath: setup.base) }
        let result = try await CLIRunner.run(
            ["apple-payload", "--keys", setup.keys, "--trust-anchor", setup.root],
            stdin: request(certificates: chain(setup.ca + "/chain.json")))
        #expect(result.status == 0, "\(result.stderr)")
        let body = try response(result.stdout)
        #expect(Set(body.keys) == ["encryptedPassData", "activationData", "ephemeralPublicKey"])
        #expect(!result.stdout.contains(pan))

        let leafKey = try P256.KeyAgreement.PrivateKey(
            pemRepresentation: String(contentsOfFile: setup.ca + "/leaf-key.pem", encoding: .utf8))
        let plaintext = try ECCV2Opener(privateKey: leafKey).open(
            encryptedPassData: Data(base64Encoded: body["encryptedPassData"]!)!,
            ephemeralPublicKey: Data(base64Encoded: body["ephemeralPublicKey"]!)!)
        let payload = try ApplePassPayload(jsonData: plaintext)
        #expect(payload.primaryAccountNumber.unmaskedDigits == pan)
        #expect(payload.nonce == Data([0x3F, 0x2A, 0x91, 0x07]))
        try verifyTAV(body["activationData"]!, keys: setup.keys)
    }

    @Test func rsaV2PayloadOpensWithTheSandboxRSALeafKey() async throws {
        let setup = try await setUp()
        defer { try? FileManager.default.removeItem(atPath: setup.base) }
        let result = try await CLIRunner.run(
            ["apple-payload", "--keys", setup.keys, "--trust-anchor", setup.root],
            stdin: request(certificates: chain(setup.ca + "/rsa-chain.json"), scheme: "RSA_V2"))
        #expect(result.status == 0, "\(result.stderr)")
        let body = try response(result.stdout)
        #expect(Set(body.keys) == ["encryptedPassData", "activationData", "wrappedKey"])
        let leafKey = try _RSA.Encryption.PrivateKey(
            pemRepresentation: String(contentsOfFile: setup.ca + "/rsa-leaf-key.pem", encoding: .utf8))
        let plaintext = try RSAV2Opener(privateKey: leafKey).open(
            encryptedPassData: Data(base64Encoded: body["encryptedPassData"]!)!,
            wrappedKey: Data(base64Encoded: body["wrappedKey"]!)!)
        #expect(try ApplePassPayload(jsonData: plaintext).primaryAccountNumber.unmaskedDigits == pan)
    }

    @Test func realAppleChainWorksOnItsDayAndIsExpiredNow() async throws {
        let setup = try await setUp()
        defer { try? FileManager.default.removeItem(atPath: setup.base) }
        let fixture =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: CLIRunner.fixture("apple-production-chain-2018.json"))) as! [String: Any]
        let certificates = fixture["certificatesDERBase64"] as! [String]
        let then = try await CLIRunner.run(
            ["apple-payload", "--keys", setup.keys, "--at", "2020-01-01T00:00:00Z"], stdin: request(certificates: certificates))
        #expect(then.status == 0, "\(then.stderr)")
        #expect(try response(then.stdout)["ephemeralPublicKey"] != nil)
        let now = try await CLIRunner.run(["apple-payload", "--keys", setup.keys], stdin: request(certificates: certificates))
        #expect(now.status == 2)
        #expect(now.stderr.hasPrefix("error: chain_expired:"))
    }

    @Test func everyInvalidInputExitsTwoWithOneLineNamingTheCodeAndNoPAN() async throws {
        let setup = try await setUp()
        defer { try? FileManager.default.removeItem(atPath: setup.base) }
        let sandboxChain = try chain(setup.ca + "/chain.json")
        let cases: [(arguments: [String], stdin: Data, code: String)] = [
            (["--trust-anchor", setup.root], try request(certificates: sandboxChain, pan: "4111111111111112"), "invalid_pan"),
            (["--trust-anchor", setup.root], try request(certificates: sandboxChain, nonce: "zz-not-binary"), "invalid_nonce"),
            (
                ["--trust-anchor", setup.root], try request(certificates: sandboxChain, scheme: "RSA_V9"),
                "unsupported_encryption_scheme"
            ),
            (["--trust-anchor", setup.root], Data("{\"primaryAccountNumber\": \"4111111111111111\"".utf8), "invalid_request"),
            (["--trust-anchor", setup.root], Data(#"{"primaryAccountNumber": "4111111111111111"}"#.utf8), "invalid_request"),
            ([], try request(certificates: sandboxChain), "chain_unknown_root"),
            (["--trust-anchor", setup.root], try request(certificates: []), "chain_empty"),
            (["--trust-anchor", setup.root], try request(certificates: ["bm90IGEgY2VydA=="]), "chain_undecodable_certificate"),
            (["--trust-anchor", setup.root, "--at", "yesterday"], try request(certificates: sandboxChain), "invalid_argument"),
            (["--trust-anchor", "/nonexistent.pem"], try request(certificates: sandboxChain), "trust_anchor_invalid"),
        ]
        for testCase in cases {
            let result = try await CLIRunner.run(
                ["apple-payload", "--keys", setup.keys] + testCase.arguments, stdin: testCase.stdin)
            #expect(result.status == 2, "\(testCase.code): \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: \(testCase.code):"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(!result.stderr.contains("4111111111111111") && !result.stderr.contains("4111111111111112"))
        }
        let missingKeys = try await CLIRunner.run(
            ["apple-payload", "--keys", setup.keys + "-none"], stdin: try request(certificates: sandboxChain))
        #expect(missingKeys.status == 2)
        #expect(missingKeys.stderr.hasPrefix("error: keys_missing:"))
    }
}

@Suite struct KeysAndSandboxCLITests {
    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber).intValue
    }

    @Test func keysInitWritesPrivateFilesAndRefusesToOverwrite() async throws {
        let dir = CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try await CLIRunner.run(["keys", "init", "--dir", dir])
        #expect(first.status == 0)
        #expect(try mode(dir + "/vault-keys.json") == 0o600)
        #expect(try mode(dir + "/tav-signing-key.pem") == 0o600)
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/tav-signing-key.pem"))
        let second = try await CLIRunner.run(["keys", "init", "--dir", dir])
        #expect(second.status == 2)
        #expect(second.stderr.hasPrefix("error: keys_already_exist:"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/tav-signing-key.pem")) == before)

        let rotate = try await CLIRunner.run(["keys", "rotate", "--dir", dir])
        #expect(rotate.status == 0, "\(rotate.stderr)")
        #expect(rotate.stdout.contains("decrypt-only: kek_"))
    }

    @Test func sandboxCAWritesTheHierarchy() async throws {
        let dir = CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try await CLIRunner.run(["sandbox", "ca", "--out", dir])
        #expect(result.status == 0, "\(result.stderr)")
        for name in [
            "root.pem", "chain.json", "leaf-key.pem", "rsa-chain.json", "rsa-leaf-key.pem", "network-opc-key.pem",
            "network-opc-public-key.pem",
        ] {
            #expect(FileManager.default.fileExists(atPath: dir + "/" + name), "\(name)")
        }
        #expect(try mode(dir + "/leaf-key.pem") == 0o600)
        #expect(try mode(dir + "/network-opc-key.pem") == 0o600)
        let chain =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/chain.json")))
            as! [String: [String]]
        #expect(chain["certificates"]?.count == 2)
        let anchors = try TrustAnchors.load(pemFile: dir + "/root.pem")
        let validated = try AppleCertificateChainValidator(trustAnchors: anchors).validate(
            base64Certificates: chain["certificates"]!, scheme: .eccV2, at: Date())
        let leafKey = try P256.KeyAgreement.PrivateKey(
            pemRepresentation: String(contentsOfFile: dir + "/leaf-key.pem", encoding: .utf8))
        guard case .p256(let recipient) = validated.recipient else { Issue.record("expected P-256"); return }
        #expect(recipient.key.rawRepresentation == leafKey.publicKey.rawRepresentation)

        let again = try await CLIRunner.run(["sandbox", "ca", "--out", dir])
        #expect(again.status == 2)
        #expect(again.stderr.hasPrefix("error: sandbox_io_failed:"))
    }
}
