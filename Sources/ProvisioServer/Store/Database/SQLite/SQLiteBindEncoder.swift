import CSQLite
import Foundation

/// Turns a value SQLKit binds (`\(bind: …)`) into the `SQLiteValue` the driver binds.
///
/// Databases written through SQLiteKit's `SQLiteDataEncoder` must read the same, so every type
/// is stored as that encoder stored it: text for a `String` (and a `UUID`, as its uppercase
/// `uuidString`), an integer for every fixed-width integer and for a `Bool` (1 or 0), a real for
/// a `Double` or `Float` and for a `Date` (seconds since 1970), a blob for `Data`, NULL for
/// `nil`. A type that encodes itself as one such value (an `Optional`, a `RawRepresentable`
/// enum) is stored as that value. Anything else is refused: SQLiteKit stored it as JSON text,
/// which the store never binds, and a silent JSON column is the wrong place to find out.
enum SQLiteBindEncoder {
    static func encode(_ value: any Encodable) throws -> SQLiteValue {
        if let direct = try direct(value) { return direct }
        let capture = SingleValueCapture()
        do {
            try value.encode(to: capture)
        } catch {
            // A container's refusal is reported below, naming the type.
            guard capture.refusal != nil else { throw error }
        }
        if let refusal = capture.refusal {
            throw SQLiteFailure(
                code: SQLITE_MISMATCH,
                message: "A bound \(type(of: value)) encodes as \(refusal), which the SQLite driver does not store: "
                    + "bind one value (text, a number, Data, a Date) per column.")
        }
        guard let encoded = capture.value else {
            throw SQLiteFailure(code: SQLITE_MISMATCH, message: "A bound \(type(of: value)) encoded nothing.")
        }
        return encoded
    }

    /// The types stored without going through `Encodable`, or nil for the others.
    private static func direct(_ value: any Encodable) throws -> SQLiteValue? {
        if type(of: value) == [UInt8].self {
            // SQLiteKit stored an array of bytes as JSON text ("[1,2]"), not as a blob; refused
            // rather than stored either way by surprise.
            throw SQLiteFailure(code: SQLITE_MISMATCH, message: "A bound [UInt8] is refused: bind Data for a blob.")
        }
        switch value {
        case let text as String: return .text(text)
        case let number as Int: return .integer(Int64(number))
        case let number as Int64: return .integer(number)
        case let flag as Bool: return .integer(flag ? 1 : 0)
        case let number as Double: return .float(number)
        case let bytes as Data: return .blob([UInt8](bytes))
        case let date as Date: return .float(date.timeIntervalSince1970)
        case let number as Float: return .float(Double(number))
        case let id as UUID: return .text(id.uuidString)
        case let number as any FixedWidthInteger: return try integer(number)
        default: return nil
        }
    }

    private static func integer(_ number: some FixedWidthInteger) throws -> SQLiteValue {
        // SQLite's integers are 64-bit signed; a larger UInt64 would trap in a plain conversion.
        guard let exact = Int64(exactly: number) else {
            throw SQLiteFailure(
                code: SQLITE_MISMATCH, message: "A bound \(type(of: number)) is beyond SQLite's 64-bit integers.")
        }
        return .integer(exact)
    }

    /// An `Encoder` that accepts one single value and notes any other container asked of it.
    private final class SingleValueCapture: Encoder, SingleValueEncodingContainer {
        var value: SQLiteValue?
        /// What the value asked for instead of a single value ("a keyed container", …).
        var refusal: String?

        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            refusal = refusal ?? "a keyed container"
            return KeyedEncodingContainer(RefusingKeyedContainer<Key>(encoder: self))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            refusal = refusal ?? "an unkeyed container"
            return RefusingUnkeyedContainer(encoder: self)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { self }

        func encodeNil() throws { value = .null }

        /// Every primitive requirement lands here (a generic witness), and so does a nested
        /// value: an Optional's wrapped value, an enum's raw value.
        func encode<T: Encodable>(_ nested: T) throws { value = try SQLiteBindEncoder.encode(nested) }
    }

    /// Handed out when a value asks for keyed storage; refuses whatever is put in it.
    private struct RefusingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: SingleValueCapture
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { throw Refused() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw Refused() }
        mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key)
            -> KeyedEncodingContainer<Nested>
        {
            encoder.container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            encoder.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }

    /// Handed out when a value asks for a list; refuses whatever is put in it.
    private struct RefusingUnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: SingleValueCapture
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }

        mutating func encodeNil() throws { throw Refused() }
        mutating func encode<T: Encodable>(_ value: T) throws { throw Refused() }
        mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type) -> KeyedEncodingContainer<Nested> {
            encoder.container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { encoder }
    }

    /// Stops a refused value's encoding; `encode(_:)` then reports the refusal it noted.
    private struct Refused: Error {}
}
