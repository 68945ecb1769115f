import SQLKit
import SQLiteKit
import VaporCSQLite

/// A row read by `SQLiteNativeConnection`, decoded the way SQLiteKit decodes (the same
/// `SQLiteDataDecoder`), so the store reads the same values from either driver.
struct SQLiteNativeRow: SQLRow {
    /// Made once: each decoder holds a JSONDecoder, which is not cheap to make per row.
    private static let decoder = SQLiteDataDecoder()

    let columns: SQLiteColumnIndex
    let values: [SQLiteData]

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
        return try Self.decoder.decode(D.self, from: values[position])
    }
}
