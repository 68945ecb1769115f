import Foundation
import Logging
import NIOCore
import NIOPosix
import ProvisioCore
import SQLKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SQLite in WAL mode: one writer connection (SQLite allows one writer at a time; serialising
/// writes in-process avoids its sleep-based busy handler and keeps latency flat) and a few
/// reader connections that read concurrently with it. Reads run in place on the calling task's
/// thread; a write or transaction runs all its statements on the writer's own thread
/// (`SQLiteWriterThread`), entered once; see `SQLiteNativeDatabase.Placement`.
public final class SQLiteDatabaseHandle: DatabaseHandle {
    public let engine = DatabaseEngine.sqlite
    public let path: String
    private let writer: ConnectionLender<SQLiteNativeConnection>
    private let readers: ConnectionLender<SQLiteNativeConnection>
    private let pool: NIOThreadPool
    /// The `SQLiteWriterThread` the writes run on (typed `any Sendable`: a stored property cannot
    /// carry an availability; nil where task executors are not available, and writes then take
    /// the pool, a hop per statement).
    private let writerThread: (any Sendable)?
    private let logger: Logger
    /// Only for SQLKit's future-returning calls, which the store does not make.
    private let eventLoop: any EventLoop

    private init(
        path: String, writer: ConnectionLender<SQLiteNativeConnection>, readers: ConnectionLender<SQLiteNativeConnection>,
        logger: Logger
    ) {
        self.path = path
        self.writer = writer
        self.readers = readers
        self.pool = NIOThreadPool.singleton
        if #available(macOS 15.0, iOS 18.0, *) {
            self.writerThread = SQLiteWriterThread()
        } else {
            self.writerThread = nil
        }
        self.logger = logger
        self.eventLoop = MultiThreadedEventLoopGroup.singleton.any()
    }

    public static func open(path: String, readers readerCount: Int = 4, logger: Logger) async throws -> SQLiteDatabaseHandle {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            throw ProvisioError(.databaseUnavailable, "The directory of the SQLite file \(path) does not exist.")
        }
        try restrictPermissions(path: path, logger: logger)
        func connect(readOnly: Bool) async throws -> SQLiteNativeConnection {
            try await NIOThreadPool.singleton.runIfActive {
                let connection: SQLiteNativeConnection
                do {
                    connection = try SQLiteNativeConnection.open(path: path)
                } catch {
                    throw ProvisioError(.databaseUnavailable, "Cannot open the SQLite database \(path).")
                }
                do {
                    // Readers refuse to write: they run in place, where waiting for the write lock
                    // would hold a cooperative thread, and a write belongs on the one writer.
                    for pragma in [
                        "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON",
                        readOnly ? "PRAGMA query_only=ON" : "PRAGMA query_only=OFF",
                    ] {
                        _ = try connection.query(pragma, [])
                    }
                    try connection.setBusyTimeout(milliseconds: readOnly ? Self.inPlaceBusyTimeout : Self.busyTimeout)
                } catch {
                    // The first statement is where SQLite reads the file: a file that is not a
                    // database (or is damaged) fails here, and the connection must still be closed.
                    try? connection.close()
                    throw ProvisioError(
                        .databaseUnavailable, "Cannot use \(path) as a SQLite database: \(DatabaseFailure.describe(error)).")
                }
                return connection
            }
        }
        var opened: [SQLiteNativeConnection] = []
        do {
            opened.append(try await connect(readOnly: false))
            for _ in 0..<max(1, readerCount) { opened.append(try await connect(readOnly: true)) }
        } catch {
            Self.closeAll(opened)
            throw error
        }
        return SQLiteDatabaseHandle(
            path: path, writer: ConnectionLender([opened[0]]), readers: ConnectionLender(Array(opened.dropFirst())),
            logger: logger)
    }

    /// The database holds sealed secrets and tenants' data: the file is created 0600 before
    /// SQLite opens it (SQLite gives its -wal and -shm files the main file's mode), and files an
    /// older version left readable by others are narrowed to 0600.
    static func restrictPermissions(path: String, logger: Logger) throws {
        let fd = openCreatingPrivately(path)
        guard fd >= 0 else {
            throw ProvisioError(.databaseUnavailable, "Cannot open the SQLite database \(path).")
        }
        close(fd)
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            guard stat(file, &info) == 0, info.st_mode & 0o077 != 0 else { continue }
            guard chmod(file, 0o600) == 0 else {
                throw ProvisioError(.databaseUnavailable, "Cannot restrict the permissions of \(file) to 0600.")
            }
            logger.warning("narrowed a database file readable by others to 0600", metadata: ["file": "\(file)"])
        }
    }

    /// How long a write waits for another process's lock, and a read that found one, on a pool
    /// thread.
    static let busyTimeout: Int32 = 5000
    /// How long a read waits in place before it moves to a pool thread to wait longer.
    static let inPlaceBusyTimeout: Int32 = 20

    public func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await readers.with { try await body(database($0, .inPlace(retryPool: pool, patience: Self.busyTimeout))) }
    }

    public func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await onWriterThread { placement in
            try await writer.with { try await body(database($0, placement)) }
        }
    }

    public func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await onWriterThread { placement in
            try await writer.with { connection in
                try await database(connection, placement).inTransaction(begin: "BEGIN IMMEDIATE", body)
            }
        }
    }

    /// Runs `body` on the writer's thread, where its statements run in place (`.direct`): one
    /// hop there and one back for the whole write, and the writer is given back before the hop
    /// back. Without task executors, on the caller's thread with a pool hop per statement.
    private func onWriterThread<T: Sendable>(
        _ body: @Sendable (SQLiteNativeDatabase.Placement) async throws -> T
    ) async throws -> T {
        if #available(macOS 15.0, iOS 18.0, *), let thread = writerThread as? SQLiteWriterThread {
            return try await withTaskExecutorPreference(thread) { try await body(.direct) }
        }
        return try await body(.pool(pool))
    }

    private func database(_ connection: SQLiteNativeConnection, _ placement: SQLiteNativeDatabase.Placement)
        -> SQLiteNativeDatabase
    {
        SQLiteNativeDatabase(connection: connection, placement: placement, logger: logger, eventLoop: eventLoop)
    }

    public func shutdown() async {
        Self.closeAll(writer.all + readers.all)
        // Its thread ends once idle (a write still under way finishes first, on a closed
        // connection); a handle shut down holds no thread.
        if #available(macOS 15.0, iOS 18.0, *) { (writerThread as? SQLiteWriterThread)?.stop() }
    }

    deinit {
        if #available(macOS 15.0, iOS 18.0, *) { (writerThread as? SQLiteWriterThread)?.stop() }
    }

    /// Waits for a query in flight on each connection, then closes it; runs even in a
    /// cancelled task (a shutdown on cancellation, as the demo's can be).
    private static func closeAll(_ connections: [SQLiteNativeConnection]) {
        // A refusal leaves the connection to its deinit, which closes it when it goes.
        for connection in connections { try? connection.close() }
    }
}

/// `open(2)` at file scope: inside the handle, `open` names its own static method.
private func openCreatingPrivately(_ path: String) -> Int32 {
    open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
}
