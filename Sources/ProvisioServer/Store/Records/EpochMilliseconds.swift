import Foundation

/// A record's date as the store keeps every date: whole epoch milliseconds in a BIGINT. With it
/// a record goes through SQLKit's model coding (`RecordCoding`) as the hand-written binds did;
/// a bare `Date` would bind as a real (SQLite) or a timestamp (PostgreSQL).
@propertyWrapper
public struct EpochMilliseconds: Codable, Hashable, Sendable {
    public var wrappedValue: Date

    public init(wrappedValue: Date) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        wrappedValue = Date(epochMilliseconds: try decoder.singleValueContainer().decode(Int64.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.epochMilliseconds)
    }
}
