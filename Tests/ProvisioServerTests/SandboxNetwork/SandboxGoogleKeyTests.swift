import Foundation
import ProvisioCore
import ProvisioOpenPGP
import ProvisioSandbox
import Testing

/// The sandbox Google's OpenPGP key: shaped as Google asks, kept in a directory across restarts,
/// and what opens a Google OPC sealed to its public half.
@Suite struct SandboxGoogleKeyTests {
    @Test func keptInItsDirectoryAcrossRestarts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("google-key-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = { (name: String) in (directory as NSString).appendingPathComponent(name) }
        let now = Date()

        let (made, generated) = try await offThePool { try SandboxGoogleKey.loadOrGenerate(in: directory, at: now) }
        #expect(generated)
        #expect(made.publicKey.keyFingerprints.count == 2, "a primary key and an encryption subkey")
        #expect(made.publicKey.userIDs == [SandboxGoogleKey.userID])
        let expiry = try #require(made.publicKey.expiration)
        #expect(abs(expiry.timeIntervalSince(now) - SandboxGoogleKey.validity) < 2)
        let attributes = try FileManager.default.attributesOfItem(atPath: path(SandboxGoogleKey.privateKeyFile))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let publicText = try String(contentsOfFile: path(SandboxGoogleKey.publicKeyFile), encoding: .utf8)
        #expect(publicText.hasPrefix("-----BEGIN PGP PUBLIC KEY BLOCK-----"))

        // Read back: the same key, and the public file rewritten when it went missing.
        try FileManager.default.removeItem(atPath: path(SandboxGoogleKey.publicKeyFile))
        let (loaded, again) = try SandboxGoogleKey.loadOrGenerate(in: directory, at: now)
        #expect(!again && loaded.publicKey.fingerprint == made.publicKey.fingerprint)
        #expect(FileManager.default.fileExists(atPath: path(SandboxGoogleKey.publicKeyFile)))

        // What is sealed to the public half opens with the reloaded key.
        let issuer = try await GoogleTestKeys.shared().issuer
        let card = try GoogleOpaquePaymentCard(
            serverSessionID: "sbx_gss_1", accountNumber: "4111111111111111", expiryMonth: 12, expiryYear: 2030)
        let sealed = try card.seal(
            issuer: issuer, googleKeys: [OpenPGPPublicKey(Data(publicText.utf8))], at: now)
        let opened = try GoogleOpaquePaymentCard.open(
            sealed, googleKeys: loaded.secretKeys, issuers: [issuer.publicKey], serverSessionID: "sbx_gss_1", at: now)
        #expect(opened == card)

        // A private file that is not a key is refused, never replaced.
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: path(SandboxGoogleKey.privateKeyFile)))
        #expect(
            SandboxOPCKeyTests.code { try SandboxGoogleKey.loadOrGenerate(in: directory, at: now) } == .sandboxGoogleKeyInvalid)
        #expect(try String(contentsOfFile: path(SandboxGoogleKey.privateKeyFile), encoding: .utf8) == "not a key")
        #expect((try? SandboxGoogleKey(secretKeys: [])) == nil, "at least one key")
    }
}
