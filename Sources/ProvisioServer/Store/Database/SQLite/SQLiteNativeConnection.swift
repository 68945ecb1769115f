import CSQLite
import Foundation

/// One SQLite connection driven through SQLite's C API (the system's library, `CSQLite`),
/// keeping its prepared statements for reuse.
///
/// SQLiteNIO, which the store used before, prepared every statement anew and ran every call on
/// `NIOThreadPool`, so each query cost two thread hops and a compile. Here a query runs on the
/// thread that calls it, and the store's few dozen statements are compiled once per connection.
/// Where a call runs is the handle's choice: reads in place, writes on a thread pool (a write can
/// wait for another process's lock).
///
/// `@unchecked Sendable`: the sqlite3 handle and the statement cache are only touched between
/// `lock.lock()` and `lock.unlock()`, so one thread at a time uses them; `open` refuses a SQLite
/// built without threads (SQLITE_THREADSAFE=0), so a connection may be used from one thread and
/// then another. That lock is also why the handle is opened without SQLite's own mutex
/// (`SQLITE_OPEN_NOMUTEX`): a second lock on every bind, step and column read would only repeat
/// it.
final class SQLiteNativeConnection: @unchecked Sendable {
    /// Prepared statements kept per connection; the oldest is finalized beyond this. The store
    /// has fewer distinct statements, but grouped inserts vary in length.
    static let statementCacheLimit = 128

    private let lock = NSLock()
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private var statementOrder: [String] = []
    /// The connection's own busy timeout, which a single query may replace.
    private var busyTimeout: Int32 = 0

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    /// Opens (creating if needed) the database at `path`, with extended result codes.
    static func open(path: String) throws -> SQLiteNativeConnection {
        _ = initialized
        guard sqlite3_threadsafe() != 0 else {
            throw SQLiteFailure(code: SQLITE_MISUSE, message: "The system's SQLite was built without thread safety.")
        }
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let failure = SQLiteFailure(code: status, handle: handle)
            // A failed open still allocates a handle (unless memory ran out), to be closed.
            sqlite3_close(handle)
            throw failure
        }
        // As the SQLite bundled before (SQLiteNIO's, built with SQLITE_DQS=0 and
        // SQLITE_SECURE_DELETE), whatever the system's was built with: "x" is an identifier,
        // never a string, and deleted rows are overwritten, not left in free pages.
        var configured = provisio_sqlite3_disable_double_quoted_strings(handle)
        if configured == SQLITE_OK {
            configured = sqlite3_exec(handle, "PRAGMA secure_delete=ON", nil, nil, nil)
        }
        guard configured == SQLITE_OK else {
            let failure = SQLiteFailure(code: configured, handle: handle)
            sqlite3_close(handle)
            throw failure
        }
        return SQLiteNativeConnection(handle: handle)
    }

    /// `sqlite3_initialize` once per process before the first open, so that concurrent opens
    /// do not race on SQLite's global configuration; memory statistics off first, as the SQLite
    /// bundled before had them (one global mutex per allocation otherwise).
    private static let initialized: Int32 = {
        _ = provisio_sqlite3_disable_memory_statistics()
        return sqlite3_initialize()
    }()

    /// How long SQLite waits for another connection's lock before it answers SQLITE_BUSY.
    func setBusyTimeout(milliseconds: Int32) throws {
        lock.lock()
        defer { lock.unlock() }
        let handle = try openHandle()
        let status = sqlite3_busy_timeout(handle, milliseconds)
        guard status == SQLITE_OK else { throw SQLiteFailure(code: status, handle: handle) }
        busyTimeout = milliseconds
    }

    /// Runs one statement with `binds` and returns its rows. A text holding more than one
    /// statement is refused: SQLite would silently run only the first. `busyTimeout` replaces
    /// the connection's own for this statement only.
    func query(_ sql: String, _ binds: [SQLiteValue], busyTimeout override: Int32? = nil) throws -> [SQLiteNativeRow] {
        lock.lock()
        defer { lock.unlock() }
        let handle = try openHandle()
        if let override, override != busyTimeout {
            sqlite3_busy_timeout(handle, override)
        }
        defer {
            if let override, override != busyTimeout { sqlite3_busy_timeout(handle, busyTimeout) }
        }
        guard let statement = try statement(for: sql, handle: handle) else { return [] }
        // Reset even on failure: a kept statement runs again only once reset, and its bound
        // copies are released.
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try bind(binds, to: statement, handle: handle)
        var rows: [SQLiteNativeRow] = []
        var columns: SQLiteColumnIndex?
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw SQLiteFailure(code: status, handle: handle) }
            let index = columns ?? SQLiteColumnIndex(statement: statement)
            columns = index
            rows.append(SQLiteNativeRow(columns: index, values: try Self.values(of: statement, count: index.names.count)))
        }
    }

    /// Finalizes the kept statements and closes the database. Later queries fail.
    func close() throws {
        lock.lock()
        defer { lock.unlock() }
        guard let handle else { return }
        finalizeStatements()
        let status = sqlite3_close(handle)
        guard status == SQLITE_OK else { throw SQLiteFailure(code: status, handle: handle) }
        self.handle = nil
    }

    deinit {
        // Only reached when an owner forgot `close()`: v2 closes once the last statement goes.
        if let handle {
            finalizeStatements()
            sqlite3_close_v2(handle)
        }
    }

    /// The sqlite3 handle, unless the connection was closed; call under `lock`.
    private func openHandle() throws -> OpaquePointer {
        guard let handle else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "The connection is closed.") }
        return handle
    }

    private func finalizeStatements() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        statementOrder = []
    }

    /// The kept statement for `sql`, or a new one (kept); nil for a text with no statement.
    private func statement(for sql: String, handle: OpaquePointer) throws -> OpaquePointer? {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let (status, trailing) = sql.withCString { text -> (Int32, Bool) in
            var tail: UnsafePointer<CChar>?
            let status = sqlite3_prepare_v3(
                handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            return (status, tail.map(Self.holdsStatement) ?? false)
        }
        guard status == SQLITE_OK else { throw SQLiteFailure(code: status, handle: handle) }
        guard let statement else { return nil }
        guard !trailing else {
            sqlite3_finalize(statement)
            throw SQLiteFailure(code: SQLITE_MISUSE, message: "A query holds more than one statement.")
        }
        if statementOrder.count >= Self.statementCacheLimit {
            let oldest = statementOrder.removeFirst()
            if let evicted = statements.removeValue(forKey: oldest) { sqlite3_finalize(evicted) }
        }
        statements[sql] = statement
        statementOrder.append(sql)
        return statement
    }

    /// Whether the text after a statement holds anything but spaces and semicolons.
    private static func holdsStatement(_ tail: UnsafePointer<CChar>) -> Bool {
        var cursor = tail
        while cursor.pointee != 0 {
            switch UInt8(bitPattern: cursor.pointee) {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: ";"): break
            default: return true
            }
            cursor += 1
        }
        return false
    }

    private func bind(_ binds: [SQLiteValue], to statement: OpaquePointer, handle: OpaquePointer) throws {
        for (offset, value) in binds.enumerated() {
            let position = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let number):
                status = sqlite3_bind_int64(statement, position, number)
            case .float(let number):
                status = sqlite3_bind_double(statement, position, number)
            case .text(let text):
                status = text.withCString {
                    sqlite3_bind_text64(
                        statement, position, $0, UInt64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
                }
            case .blob(let bytes) where bytes.isEmpty:
                // A null pointer would bind NULL, not an empty blob.
                status = sqlite3_bind_zeroblob(statement, position, 0)
            case .blob(let bytes):
                status = bytes.withUnsafeBytes {
                    sqlite3_bind_blob64(statement, position, $0.baseAddress, UInt64($0.count), transient)
                }
            case .null:
                status = sqlite3_bind_null(statement, position)
            }
            guard status == SQLITE_OK else { throw SQLiteFailure(code: status, handle: handle) }
        }
    }

    private static func values(of statement: OpaquePointer, count: Int) throws -> [SQLiteValue] {
        var values: [SQLiteValue] = []
        values.reserveCapacity(count)
        for column in 0..<Int32(count) {
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER:
                values.append(.integer(sqlite3_column_int64(statement, column)))
            case SQLITE_FLOAT:
                values.append(.float(sqlite3_column_double(statement, column)))
            case SQLITE_TEXT:
                // Text first, then its length in bytes (SQLite's documented order).
                let text = sqlite3_column_text(statement, column)
                let length = Int(sqlite3_column_bytes(statement, column))
                values.append(
                    .text(text.map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""))
            case SQLITE_BLOB:
                let bytes = sqlite3_column_blob(statement, column)
                let length = Int(sqlite3_column_bytes(statement, column))
                values.append(.blob(bytes.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: length)) } ?? []))
            case SQLITE_NULL:
                values.append(.null)
            case let type:
                throw SQLiteFailure(code: SQLITE_MISMATCH, message: "Column \(column) has an unknown type \(type).")
            }
        }
        return values
    }
}

/// SQLite's "copy the value now" destructor for binds.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension SQLiteNativeConnection {
    /// How many prepared statements the connection keeps (for tests).
    var keptStatementCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return statements.count
    }
}
