/// One versioned step of the schema. Statements are portable SQL that SQLite and PostgreSQL
/// both accept (TEXT ids, BIGINT epoch milliseconds, no engine-specific types).
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let statements: [String]
}
