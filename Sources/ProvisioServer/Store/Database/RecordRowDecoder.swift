import ProvisioCore
import SQLKit

/// Reads a `Decodable` record from a row by `RecordCoding`'s rules: each property from the column
/// of its snake_case name, NULL or a missing column as nil, a `StoredFallback` enum through its
/// fallback, and anything else (a date wrapper, a raw-value enum) from its one column.
///
/// SQLKit's `SQLRowDecoder` does the same through general machinery that, for every property,
/// renamed the key up to four times (a closure, an array, a prefix interpolation each time) and
/// checked the column twice; reading the card on the Apple Pay endpoint's path cost about 4 % of
/// the server's CPU that way. Here a key's column is computed once per process and each property
/// costs one lookup in the row.
struct RecordRowDecoder: Decoder {
    let row: any SQLRow

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Columns<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw Self.refusal("a list", at: [])
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw Self.refusal("a single value", at: [])
    }

    static func refusal(_ shape: String, at path: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(
            Any.self, DecodingError.Context(codingPath: path, debugDescription: "A record's row holds no \(shape) here."))
    }

    /// The column of each property name seen so far: a fixed, small set (the records' properties).
    private static let columnNames = Locked<[String: String]>([:])

    static func column(of key: some CodingKey) -> String {
        let property = key.stringValue
        if let known = columnNames.withLock({ $0[property] }) { return known }
        let column = RecordCoding.column(property)
        columnNames.withLock { $0[property] = column }
        return column
    }

    /// The record's properties, each one column.
    private struct Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: any SQLRow
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool {
            row.contains(column: RecordRowDecoder.column(of: key))
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            let column = RecordRowDecoder.column(of: key)
            return try !row.contains(column: column) || row.decodeNil(column: column)
        }

        // The kinds records hold, read straight from the row.
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(type, key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(type, key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(type, key) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(type, key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(type, key) }

        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let column = try existingColumn(of: key)
            do {
                if let tolerant = T.self as? any StoredFallback.Type,
                    let value = tolerant.fromStored(try row.decode(column: column, as: String.self)) as? T
                {
                    return value
                }
                return try T(from: ColumnDecoder(row: row, column: column, key: key))
            } catch let error as DecodingError {
                throw Self.located(error, at: key)
            }
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            try decodeNil(forKey: key) ? nil : decode(type, forKey: key)
        }

        private func value<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
            let column = try existingColumn(of: key)
            do {
                return try row.decode(column: column, as: type)
            } catch let error as DecodingError {
                throw Self.located(error, at: key)
            }
        }

        /// The property's column, or the same error on every engine when the row lacks it.
        private func existingColumn(of key: Key) throws -> String {
            let column = RecordRowDecoder.column(of: key)
            guard row.contains(column: column) else {
                throw DecodingError.keyNotFound(
                    key, DecodingError.Context(codingPath: [], debugDescription: "The row has no column \(column)."))
            }
            return column
        }

        private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
            try decodeNil(forKey: key) ? nil : value(type, key)
        }

        func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<Nested>
        {
            throw RecordRowDecoder.refusal("nested record", at: [key])
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw RecordRowDecoder.refusal("list", at: [key])
        }

        func superDecoder() throws -> any Decoder { throw RecordRowDecoder.refusal("super record", at: []) }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            throw RecordRowDecoder.refusal("super record", at: [key])
        }

        /// The error with the property it happened on (its column's value is never quoted).
        static func located(_ error: DecodingError, at key: Key) -> DecodingError {
            switch error {
            case .typeMismatch(let type, let context):
                .typeMismatch(type, DecodingError.Context(codingPath: [key], debugDescription: context.debugDescription))
            case .valueNotFound(let type, let context):
                .valueNotFound(type, DecodingError.Context(codingPath: [key], debugDescription: context.debugDescription))
            case .dataCorrupted(let context):
                .dataCorrupted(DecodingError.Context(codingPath: [key], debugDescription: context.debugDescription))
            default: error
            }
        }
    }

    /// One column as a single value: what a property wrapper (`EpochMilliseconds`) or a
    /// raw-value enum decodes from.
    private struct ColumnDecoder: Decoder, SingleValueDecodingContainer {
        let row: any SQLRow
        let column: String
        let key: any CodingKey

        var codingPath: [any CodingKey] { [key] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Nested: CodingKey>(keyedBy type: Nested.Type) throws -> KeyedDecodingContainer<Nested> {
            throw RecordRowDecoder.refusal("nested record", at: [key])
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw RecordRowDecoder.refusal("list", at: [key])
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

        func decodeNil() -> Bool { (try? row.decodeNil(column: column)) ?? true }

        func decode<T: Decodable>(_ type: T.Type) throws -> T { try row.decode(column: column, as: type) }
    }
}
