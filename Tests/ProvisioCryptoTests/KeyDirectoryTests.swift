import Foundation
import ProvisioCore
import Testing

@testable import ProvisioCrypto

@Suite struct KeyDirectoryTests {
    func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "provisio-keys-\(UUID().uuidString)"
        return path
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber).intValue
    }

    @Test func initialisesWithPrivatePermissionsAndLoads() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let created = try KeyDirectory(path: dir).initialize()
        #expect(try mode(dir) == 0o700)
        #expect(try mode(dir + "/vault-keys.json") == 0o600)
        #expect(try mode(dir + "/tav-signing-key.pem") == 0o600)
        #expect(try mode(dir + "/tav-public-key.pem") == 0o644)
        let loaded = try KeyDirectory(path: dir).load()
        #expect(loaded.keyring.active.id == created.keyring.active.id)
        #expect(loaded.keyring.active.exportKeyBytes() == created.keyring.active.exportKeyBytes())
        #expect(loaded.tavSigningKey.rawRepresentation == created.tavSigningKey.rawRepresentation)
    }

    @Test func refusesToOverwrite() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try KeyDirectory(path: dir).initialize()
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/vault-keys.json"))
        let error = #expect(throws: ProvisioError.self) { try KeyDirectory(path: dir).initialize() }
        #expect(error?.code == .keysAlreadyExist)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/vault-keys.json")) == before)
    }

    @Test func refusesMissingAndWorldReadableKeys() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect((#expect(throws: ProvisioError.self) { try KeyDirectory(path: dir).load() })?.code == .keysMissing)
        try KeyDirectory(path: dir).initialize()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: dir + "/tav-signing-key.pem")
        #expect((#expect(throws: ProvisioError.self) { try KeyDirectory(path: dir).load() })?.code == .keysInsecurePermissions)
    }

    @Test func rotationKeepsOldKeyForRewrapping() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let original = try KeyDirectory(path: dir).initialize()
        let record = try PANVault(keyring: original.keyring).seal(Fixtures.pan, context: "c")
        let rotated = try KeyDirectory(path: dir).rotateVaultKey()
        #expect(rotated.active.id != original.keyring.active.id)
        #expect(try mode(dir + "/vault-keys.json") == 0o600)
        let reloaded = try KeyDirectory(path: dir).load()
        #expect(reloaded.keyring.active.id == rotated.active.id)
        #expect(reloaded.keyring.decryptOnly.map(\.id) == [original.keyring.active.id])
        let vault = PANVault(keyring: reloaded.keyring)
        #expect(try vault.open(vault.rewrap(record), context: "c") == Fixtures.pan)
    }
}
