import CSQLite
import SQLKit

/// A row read by `SQLiteNativeConnection`, decoded as SQLiteKit decoded
/// (`SQLiteValueDecoder`), so databases and code written before read the same.
struct SQLiteNativeRow: SQLRow {
    let columns: SQLiteColumnIndex
    let values: [SQLiteValue]

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool {
        columns.positions[column] != nil
    }

    func decodeNil(column: String) throws -> Bool {
        guard let position = columns.positions[column] else { return true }
        return values[position] == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let position = columns.positions[column] else {
            throw SQLiteFailure(code: SQLITE_ERROR, message: "The result has no column named \(column).")
        }
        return try SQLiteValueDecoder.decode(D.self, from: values[position])
    }
}
