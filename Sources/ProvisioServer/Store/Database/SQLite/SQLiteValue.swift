/// One value as SQLite stores it: its five storage classes. What the driver binds to a statement
/// and reads from a row; `SQLiteBindEncoder` and `SQLiteValueDecoder` map Swift values to and
/// from it.
enum SQLiteValue: Sendable, Hashable, CustomStringConvertible {
    case integer(Int64)
    case float(Double)
    case text(String)
    case blob([UInt8])
    case null

    /// The storage class's name, as SQL's `typeof()` answers it.
    var typeName: String {
        switch self {
        case .integer: "integer"
        case .float: "real"
        case .text: "text"
        case .blob: "blob"
        case .null: "null"
        }
    }

    /// The kind and size of a value, never its content: errors and logs may show this.
    var description: String {
        switch self {
        case .text(let text): "text (\(text.utf8.count) bytes)"
        case .blob(let bytes): "blob (\(bytes.count) bytes)"
        default: typeName
        }
    }
}
