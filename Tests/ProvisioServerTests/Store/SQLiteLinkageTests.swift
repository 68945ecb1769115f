import CSQLite
import Foundation
import ProvisioProcess
import Testing

@testable import ProvisioServer

/// The process opens its databases through one SQLite, the system's (the `CSQLite` target):
/// with a second copy linked in, each would keep its own POSIX locks on a database file, and
/// one closing a descriptor would drop the other's locks. That no package brings a copy is the
/// manifest's and the import check's part (Tools/check-imports.py); this is the run time's.
@Suite struct SQLiteLinkageTests {
    /// The library that runs is the one whose header the driver was compiled against.
    @Test func theLinkedSQLiteIsTheOneTheDriverWasBuiltFor() {
        #expect(sqlite3_libversion_number() == SQLITE_VERSION_NUMBER)
        #expect(String(cString: sqlite3_sourceid()) == SQLITE_SOURCE_ID)
        #expect(SQLiteNativeDialect.libraryVersion == Int(SQLITE_VERSION_NUMBER))
    }

    /// The driver turns SQLite's memory statistics off before it initializes the library, as the
    /// bundled build it replaced did: with them on, every allocation takes one global mutex. Off,
    /// SQLite counts nothing, so the figure stays 0 however much a connection allocates.
    @Test func memoryStatisticsAreOff() throws {
        let path = NSTemporaryDirectory() + "provisio-memstatus-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let connection = try SQLiteNativeConnection.open(path: path)
        _ = try connection.query("CREATE TABLE t (v TEXT)", [])
        _ = try connection.query("INSERT INTO t VALUES (?1)", [.text(String(repeating: "x", count: 100_000))])
        #expect(try connection.query("SELECT length(v) FROM t", []).count == 1)
        #expect(sqlite3_memory_used() == 0)
    }

    /// And it is the one pkg-config describes, when pkg-config is there to ask (SwiftPM asks
    /// it too, for the target's flags).
    @Test func theLinkedSQLiteIsTheSystemsPackage() async throws {
        let candidates = ["/usr/bin/pkg-config", "/usr/local/bin/pkg-config", "/opt/homebrew/bin/pkg-config"]
        guard let pkgConfig = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return
        }
        let answer = try await ChildProcess.run(pkgConfig, arguments: ["--modversion", "sqlite3"])
        try #require(answer.status == 0)
        #expect(answer.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == String(cString: sqlite3_libversion()))
    }

    #if os(Linux)
        /// The C functions the driver calls live in a shared libsqlite3, not in this executable
        /// (where a bundled copy, like sqlite-nio's, would put them), and only one libsqlite3 is
        /// mapped into the process.
        @Test func theDriverCallsTheOneSharedLibrary() throws {
            let function: @convention(c) () -> Int32 = sqlite3_libversion_number
            let address = UInt(bitPattern: unsafeBitCast(function, to: UnsafeRawPointer.self))
            // Each line: "start-end perms offset device inode path".
            // Read to the end: /proc reports a size of 0, which a sized read would trust.
            let maps = try #require(FileHandle(forReadingAtPath: "/proc/self/maps")).readDataToEndOfFile()
            let mappings = String(decoding: maps, as: UTF8.self).split(separator: "\n").map {
                $0.split(separator: " ", omittingEmptySubsequences: true)
            }
            let holder = mappings.first { fields in
                let range = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
                return range.count == 2 && range[0] <= address && address < range[1]
            }
            let library = try #require(holder?.last.map(String.init))
            #expect((library as NSString).lastPathComponent.hasPrefix("libsqlite3.so"), "\(library)")
            let mapped = Set(
                mappings.compactMap { $0.count >= 6 ? String($0[5]) : nil }
                    .filter { ($0 as NSString).lastPathComponent.hasPrefix("libsqlite3") })
            #expect(mapped == [library], "\(mapped)")
        }
    #endif
}
