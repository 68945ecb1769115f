import Foundation
import Logging
import ProvisioServer
import SQLKit
import Testing

/// The SQLite files hold tenants' data and sealed secrets: only their owner may read them.
@Suite struct DatabaseFilePermissionTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func aNewDatabaseAndItsJournalFilesAre0600() async throws {
        let directory = NSTemporaryDirectory() + "provisio-perm-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/p.sqlite"
        let handle = try await DatabaseConnector.connect(.sqlite(path: path), logger: Logger(label: "t"))
        try await Migrator(handle: handle).migrate()
        for suffix in ["", "-wal", "-shm"] {
            #expect(FileManager.default.fileExists(atPath: path + suffix), "\(suffix) exists while open")
            let mode = try Self.mode(path + suffix)
            #expect(mode == 0o600, "p.sqlite\(suffix) is \(String(mode, radix: 8))")
        }
        await handle.shutdown()
    }

    @Test func filesAnOlderVersionLeftReadableAreNarrowed() async throws {
        let directory = NSTemporaryDirectory() + "provisio-perm-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/old.sqlite"
        let first = try await DatabaseConnector.connect(.sqlite(path: path), logger: Logger(label: "t"))
        try await Migrator(handle: first).migrate()
        await first.shutdown()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(try Self.mode(path) == 0o644)

        let reopened = try await DatabaseConnector.connect(.sqlite(path: path), logger: Logger(label: "t"))
        #expect(try Self.mode(path) == 0o600)
        _ = try await reopened.read { try await $0.raw("SELECT COUNT(*) AS n FROM tenants").all() }
        await reopened.shutdown()
    }
}
