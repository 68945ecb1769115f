import Foundation
import Logging
import SQLKit
import Testing

@testable import ProvisioServer

@Suite struct SQLiteShutdownTests {
    /// A shutdown in a cancelled task (the demo's can be one) still closes every connection
    /// (SQLiteNIO's async `close()`, used before, skipped its work there).
    @Test func aShutdownInACancelledTaskClosesTheConnections() async throws {
        let directory = NSTemporaryDirectory() + "provisio-shutdown-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let handle = try await SQLiteDatabaseHandle.open(
            path: directory + "/s.sqlite", readers: 1, logger: Logger(label: "shutdown-test"))
        _ = try await handle.read { try await $0.raw("SELECT 1 AS one").all() }

        let shutdown = Task {
            try? await Task.sleep(for: .seconds(30))  // ends at once: the task is cancelled below
            await handle.shutdown()
        }
        shutdown.cancel()
        await shutdown.value

        await #expect(throws: (any Error).self, "the reader still answers: it was not closed") {
            _ = try await handle.read { try await $0.raw("SELECT 1 AS one").all() }
        }
        await #expect(throws: (any Error).self, "the writer still answers: it was not closed") {
            _ = try await handle.write { try await $0.raw("SELECT 1 AS one").all() }
        }
    }
}
