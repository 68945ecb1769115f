import Foundation
import ProvisioCore
import Testing

@testable import ProvisioCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// The error `load()` fails with, nil when it loads.
    func loadError(_ dir: String) -> ProvisioError.Code? {
        do {
            _ = try KeyDirectory(path: dir).load()
            return nil
        } catch let error as ProvisioError {
            return error.code
        } catch {
            return .keysIOFailed
        }
    }

    @Test func refusesAKeyFileThatIsASymbolicLink() throws {
        let dir = temporaryDirectory()
        let elsewhere = temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: dir)
            try? FileManager.default.removeItem(atPath: elsewhere)
        }
        try KeyDirectory(path: dir).initialize()
        // Whoever can plant a link chooses the bytes read as a key: the real file, mode 0600, moved
        // out, a link left in its place.
        try FileManager.default.createDirectory(
            atPath: elsewhere, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.moveItem(atPath: dir + "/vault-keys.json", toPath: elsewhere + "/vault-keys.json")
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/vault-keys.json", withDestinationPath: elsewhere + "/vault-keys.json")
        #expect(loadError(dir) == .keysSymlink)
    }

    @Test func refusesAKeyFileOthersCanRead() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try KeyDirectory(path: dir).initialize()
        #expect(chmod(dir + "/vault-keys.json", 0o644) == 0)
        #expect(loadError(dir) == .keysInsecurePermissions)
    }

    @Test func refusesAKeyPathThatIsNotARegularFile() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try KeyDirectory(path: dir).initialize()
        try FileManager.default.removeItem(atPath: dir + "/pan-fingerprint-key")
        #expect(mkdir(dir + "/pan-fingerprint-key", 0o700) == 0)
        #expect(loadError(dir) == .keysNotRegularFile)
    }

    /// Root can hand a file to another user: the check must then refuse it (another user may
    /// rewrite their own file whatever its mode).
    @Test(.enabled(if: geteuid() == 0, "needs root to give a file away"))
    func refusesAKeyFileOwnedBySomeoneElse() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try KeyDirectory(path: dir).initialize()
        #expect(chown(dir + "/tav-signing-key.pem", 4242, 4242) == 0)
        #expect(loadError(dir) == .keysWrongOwner)
    }

    @Test func refusesADirectoryGroupOrOthersCanWrite() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try KeyDirectory(path: dir).initialize()
        // Whoever can write the directory can rename another file over a key, whatever the key's mode.
        #expect(chmod(dir, 0o770) == 0)
        #expect(loadError(dir) == .keysInsecureDirectory)
        #expect(chmod(dir, 0o702) == 0)
        #expect(loadError(dir) == .keysInsecureDirectory)
        #expect(chmod(dir, 0o755) == 0)
        #expect(loadError(dir) == nil)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a directory away"))
    func refusesADirectoryOwnedBySomeoneElse() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try KeyDirectory(path: dir).initialize()
        #expect(chown(dir, 4242, 4242) == 0)
        #expect(loadError(dir) == .keysInsecureDirectory)
    }

    /// Read-modify-write under a lock: no rotation is lost when several run at once.
    @Test func concurrentRotationsKeepEveryKey() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let original = try KeyDirectory(path: dir).initialize()
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do { try KeyDirectory(path: dir).rotateVaultKey() } catch { failures.add(error) }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let keyring = try KeyDirectory(path: dir).load().keyring
        #expect(keyring.decryptOnly.count == 8)
        #expect(keyring.decryptOnly.contains { $0.id == original.keyring.active.id })
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains("tmp") }
        #expect(leftovers.isEmpty)
    }
}

/// Errors collected from concurrent work.
///
/// `@unchecked Sendable`: `errors` is only touched under `lock`.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []

    func add(_ error: any Error) {
        lock.lock()
        defer { lock.unlock() }
        errors.append(error)
    }

    var all: [any Error] {
        lock.lock()
        defer { lock.unlock() }
        return errors
    }
}
