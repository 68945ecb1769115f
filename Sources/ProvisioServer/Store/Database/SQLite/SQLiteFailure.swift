import CSQLite

/// An error SQLite reported: its extended result code and its own message. The message is
/// SQLite's (`sqlite3_errmsg`), which names tables, columns and constraints but never a bound
/// value, so it may reach an operator's terminal (`DatabaseFailure`).
public struct SQLiteFailure: Error, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_NOTADB`, …).
    public let code: Int32
    public let message: String

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The failure `code` left on `handle`, in SQLite's words.
    init(code: Int32, handle: OpaquePointer?) {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.init(code: code, message: message ?? String(cString: sqlite3_errstr(code)))
    }

    /// The primary result code (`SQLITE_CONSTRAINT` for every kind of constraint).
    public var primaryCode: Int32 { code & 0xff }

    public var description: String { "SQLite error \(code): \(message)" }
}
