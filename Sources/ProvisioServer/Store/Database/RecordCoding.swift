import SQLKit

/// How a `Codable` record is a table row (written through SQLKit's model encoder, read through
/// `RecordRowDecoder`): each stored property is the column of its name in snake_case
/// (`cardArtURL` is `card_art_url`, `last4` is `last4`), nil is NULL, a date is epoch
/// milliseconds (`EpochMilliseconds`), an enum its raw value, and a `StoredFallback` enum reads
/// an unknown value as its fallback. So a new column is a new property
/// of the record, with no insert or row decoding to edit.
///
/// The bound types are those the hand-written binds used (text for `String`, integers for `Int`
/// and dates), so a column keeps its encoding on SQLite and PostgreSQL: a sealed value or a
/// digest held as a `String` stays text, never a blob.
enum RecordCoding {
    static let encoder = SQLQueryEncoder(
        keyEncodingStrategy: .custom { path in SomeCodingKey(stringValue: column(path.last?.stringValue ?? "")) },
        nilEncodingStrategy: .asNil)

    /// The column of a property: words split before each capital, an acronym kept as one word,
    /// all lowercased. (SQLKit's own `.convertToSnakeCase` lowercases only a word's first letter,
    /// so `tenantID` would be `tenant_iD`, a different column on PostgreSQL.) It runs for every
    /// property of every record written (a read looks its result up), so it works on the ASCII
    /// bytes Swift property names are made of, not Character by Character with Unicode tables.
    static func column(_ property: String) -> String {
        // Bytes outside A-Z (digits, `_`, any non-ASCII) pass through unchanged.
        func isUpper(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) }
        func isLower(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }
        let bytes = Array(property.utf8)
        var column: [UInt8] = []
        column.reserveCapacity(bytes.count + 4)
        for (index, byte) in bytes.enumerated() {
            if isUpper(byte), index > 0 {
                let next = index + 1 < bytes.count ? bytes[index + 1] : nil
                // A new word after a lowercase letter or digit, or where an acronym ends ("URLPath").
                if !isUpper(bytes[index - 1]) || next.map(isLower) == true { column.append(0x5F) }
            }
            column.append(isUpper(byte) ? byte + 0x20 : byte)
        }
        return String(decoding: column, as: UTF8.self)
    }

    /// The record's columns and bound values, in the order of its properties.
    static func columns(of record: some Encodable) throws -> [(column: String, value: any SQLExpression)] {
        try encoder.encode(record).map { (column: $0.0, value: $0.1) }
    }
}

extension SQLRow {
    /// The whole row as a record (see `RecordCoding`).
    func decode<Record: Decodable>(record: Record.Type) throws -> Record {
        try Record(from: RecordRowDecoder(row: self))
    }
}
