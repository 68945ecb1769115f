import CSQLite
import Logging
import NIOCore
import NIOPosix
import SQLKit

/// SQLKit's view of a `SQLiteNativeConnection`: serializes a query in SQLite's dialect, encodes
/// its binds as SQLiteKit stored them (`SQLiteBindEncoder`), and runs it where `placement` says.
struct SQLiteNativeDatabase: SQLDatabase {
    enum Placement: Sendable {
        /// On the calling task's thread: a read of cached pages costs less than the two thread
        /// hops it would take to run it elsewhere, and WAL readers do not wait for the writer.
        /// In the rare case one must wait (a log being recovered or reset), it waits at most its
        /// connection's short busy timeout here, then once more on `retryPool` with `patience`:
        /// a long wait must not hold one of Swift's few cooperative threads.
        case inPlace(retryPool: NIOThreadPool, patience: Int32)
        /// On a pool thread: a write can wait up to the busy timeout for another process's lock.
        case pool(NIOThreadPool)
        /// On the calling thread, whatever the wait: the writer's own thread
        /// (`SQLiteWriterThread`), which a write or transaction entered once for all its
        /// statements.
        case direct
    }

    let connection: SQLiteNativeConnection
    let placement: Placement
    let logger: Logger
    let eventLoop: any EventLoop

    var version: (any SQLDatabaseReportedVersion)? { nil }
    var dialect: any SQLDialect { SQLiteNativeDialect() }
    /// SQLKit's own query log is off: it prints the binds, which hold names, references, hashes
    /// and sealed records. The statement text alone is logged at debug level (below).
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, encodables) = serialize(query)
        logger.debug("sql", metadata: ["sql": "\(sql)", "binds": "\(encodables.count)"])
        let binds = try encodables.map { try SQLiteBindEncoder.encode($0) }
        let connection = connection
        let rows: [SQLiteNativeRow]
        switch placement {
        case .inPlace(let retryPool, let patience):
            do {
                rows = try connection.query(sql, binds)
            } catch let failure as SQLiteFailure where failure.primaryCode == SQLITE_BUSY {
                rows = try await retryPool.runIfActive { try connection.query(sql, binds, busyTimeout: patience) }
            }
        case .pool(let pool):
            rows = try await pool.runIfActive { try connection.query(sql, binds) }
        case .direct:
            rows = try connection.query(sql, binds)
        }
        for row in rows { onRow(row) }
    }
}
