import Foundation
import Logging
import ProvisioServer
import SQLKit
import Testing

/// A handle is usable the moment it exists: the first query does not race the pool's start
/// (PostgresClient logs a warning for every lease it sees before its `run()` began, which an
/// operator saw on every `provisio` command against PostgreSQL).
@Suite struct PostgresStartTests {
    @Test(.enabled(if: TestEngine.postgresURL != nil))
    func theFirstQueryDoesNotRaceThePoolsStart() async throws {
        let url = try PostgresURL(try #require(TestEngine.postgresURL))
        let capture = LogCapture()
        for _ in 0..<20 {
            let handle = PostgresDatabaseHandle(url: url, maximumConnections: 1, logger: capture.logger())
            let one = try await handle.read { try await $0.raw("SELECT 1 AS one").first()?.decode(column: "one", as: Int.self) }
            await handle.shutdown()
            #expect(one == 1)
        }
        #expect(capture.count(containing: "hasn't been called yet") == 0, "\(capture.text.prefix(2000))")
    }
}
