import CSQLite

/// A result's column names and where each is, read once per query and shared by its rows. A
/// name that appears twice resolves to its first column, as SQLiteNIO resolved it.
struct SQLiteColumnIndex: Sendable {
    let names: [String]
    let positions: [String: Int]

    init(names: [String]) {
        self.names = names
        self.positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The columns of `statement`'s result.
    init(statement: OpaquePointer) {
        let count = sqlite3_column_count(statement)
        // SQLite answers NULL for a name only when it runs out of memory; the column then cannot
        // be asked for by name, but the row still reads.
        self.init(
            names: (0..<count).map { column in
                sqlite3_column_name(statement, column).map { String(cString: $0) } ?? ""
            })
    }
}
