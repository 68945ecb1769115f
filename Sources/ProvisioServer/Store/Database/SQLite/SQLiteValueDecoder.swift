import Foundation

/// Reads a Swift value out of a `SQLiteValue`, with the conversions SQLiteKit's
/// `SQLiteDataDecoder` made, so rows read the same as before the driver had its own:
///
/// - `String`: text, or an integer or real written out (`String(5)`, `String(1.5)`);
/// - fixed-width integers: an integer only, which must fit the type;
/// - `Double`, `Float`: a real or an integer;
/// - `Bool`: 1 or 0, from an integer, a real (truncated) or a text ("1");
/// - `Data`: a blob only;
/// - `Date`: a real or an integer (seconds since 1970, to the microsecond), or ISO 8601 text;
/// - `Optional`: nil for NULL; anything decoding from one value (a `UUID`, a raw-value enum) from
///   that value.
///
/// A value that needs keyed or unkeyed storage is refused: SQLiteKit parsed such columns as
/// JSON, which the store never reads through a row.
enum SQLiteValueDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from value: SQLiteValue) throws -> T {
        if let direct = try direct(type, from: value) { return direct }
        return try T(from: SingleValueReader(value: value))
    }

    /// The types read without going through `Decodable`, or nil for the others.
    private static func direct<T>(_ type: T.Type, from value: SQLiteValue) throws -> T? {
        let decoded: Any?
        switch type {
        case is String.Type:
            decoded =
                switch value {
                case .text(let text): text
                case .integer(let number): String(number)
                case .float(let number): String(number)
                case .blob, .null: nil
                }
        case let integer as any FixedWidthInteger.Type:
            guard case .integer(let number) = value else { throw mismatch(type, value) }
            decoded = try exactly(integer, number, value)
        case is Double.Type:
            decoded = double(value)
        case is Float.Type:
            decoded = double(value).map { Float($0) }
        case is Bool.Type:
            decoded =
                switch integer(value) {
                case 1: true
                case 0: false
                default: nil
                }
        case is Data.Type:
            guard case .blob(let bytes) = value else { throw mismatch(type, value) }
            decoded = Data(bytes)
        case is Date.Type:
            decoded = date(value)
        default:
            return nil
        }
        guard let decoded = decoded as? T else { throw mismatch(type, value) }
        return decoded
    }

    private static func exactly<I: FixedWidthInteger>(_ type: I.Type, _ number: Int64, _ value: SQLiteValue) throws -> I {
        guard let exact = I(exactly: number) else { throw mismatch(type, value) }
        return exact
    }

    private static func double(_ value: SQLiteValue) -> Double? {
        switch value {
        case .float(let number): number
        case .integer(let number): Double(number)
        case .text, .blob, .null: nil
        }
    }

    /// The value as an integer, the way a Bool was read: a real truncated, a text parsed.
    private static func integer(_ value: SQLiteValue) -> Int64? {
        switch value {
        case .integer(let number): number
        case .float(let number): Int64(exactly: number.rounded(.towardZero))
        case .text(let text): Int64(text)
        case .blob, .null: nil
        }
    }

    private static func date(_ value: SQLiteValue) -> Date? {
        let seconds: Double
        switch value {
        case .float(let number): seconds = number
        case .integer(let number): seconds = Double(number)
        case .text(let text): return isoDate(text)
        case .blob, .null: return nil
        }
        // To the microsecond from the reference date, so a stored Date equals the one written.
        let sinceReference = seconds - Date.timeIntervalBetween1970AndReferenceDate
        return Date(timeIntervalSinceReferenceDate: (sinceReference * 1e6).rounded() / 1e6)
    }

    /// ISO 8601 with a "T" or a space between date and time, with or without a zone (then UTC),
    /// or a date alone: the shapes SQLite's own date functions and other writers produce.
    private static func isoDate(_ text: String) -> Date? {
        let full = Date.ISO8601FormatStyle()
        let spaced = full.dateTimeSeparator(.space)
        let shapes = [
            full, spaced, spaced.year().month().day().time(includingFractionalSeconds: false),
            Date.ISO8601FormatStyle().year().month().day(),
        ]
        for shape in shapes {
            if let date = try? shape.parse(text) { return date }
        }
        return nil
    }

    /// A type mismatch naming the stored kind and size, never the stored value.
    static func mismatch(_ type: Any.Type, _ value: SQLiteValue) -> DecodingError {
        DecodingError.typeMismatch(
            type, DecodingError.Context(codingPath: [], debugDescription: "Cannot read \(type) from SQLite \(value)."))
    }

    /// A `Decoder` over one value: what an `Optional`, a `UUID` or a raw-value enum asks for.
    private struct SingleValueReader: Decoder, SingleValueDecodingContainer {
        let value: SQLiteValue
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            throw refusal("a keyed value")
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw refusal("a list")
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

        func decodeNil() -> Bool { value == .null }

        func decode<T: Decodable>(_ type: T.Type) throws -> T { try SQLiteValueDecoder.decode(type, from: value) }

        private func refusal(_ shape: String) -> DecodingError {
            DecodingError.typeMismatch(
                SQLiteValue.self,
                DecodingError.Context(codingPath: [], debugDescription: "A SQLite column holds one value, not \(shape)."))
        }
    }
}
