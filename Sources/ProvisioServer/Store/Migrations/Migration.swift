/// One versioned step of the schema. Statements are portable SQL that SQLite and PostgreSQL
/// both accept (TEXT ids, BIGINT epoch milliseconds, no engine-specific types); the few things
/// the two spell differently (triggers) go in `engineStatements`, run after the portable ones.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let statements: [String]
    public let engineStatements: [DatabaseEngine: [String]]

    public init(version: Int, name: String, statements: [String], engineStatements: [DatabaseEngine: [String]] = [:]) {
        self.version = version
        self.name = name
        self.statements = statements
        self.engineStatements = engineStatements
    }

    /// What runs on `engine`, in order.
    func statements(for engine: DatabaseEngine) -> [String] {
        statements + (engineStatements[engine] ?? [])
    }
}
