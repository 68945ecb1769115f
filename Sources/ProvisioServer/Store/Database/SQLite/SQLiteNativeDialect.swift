import CSQLite
import SQLKit

/// SQLite's SQL as SQLKit writes it for the store: `"identifiers"`, `'strings'`, numbered
/// placeholders (`?1`, `?2`: the same text as SQLiteKit's dialect produced, so the statements
/// and their kept compilations are unchanged), and the features of the SQLite the process links.
struct SQLiteNativeDialect: SQLDialect {
    /// The linked library's version, as `3040001` for 3.40.1.
    static let libraryVersion = Int(sqlite3_libversion_number())

    var name: String { "sqlite" }
    var identifierQuote: any SQLExpression { SQLRaw("\"") }
    var literalStringQuote: any SQLExpression { SQLRaw("'") }
    func bindPlaceholder(at position: Int) -> any SQLExpression { SQLRaw("?\(position)") }
    func literalBoolean(_ value: Bool) -> any SQLExpression { SQLRaw(value ? "TRUE" : "FALSE") }
    /// SQLite has no `DEFAULT` keyword in a VALUES list.
    var literalDefault: any SQLExpression { SQLLiteral.null }
    var supportsIfExists: Bool { true }
    var supportsDropBehavior: Bool { false }
    /// A column is AUTOINCREMENT only as `INTEGER PRIMARY KEY`, which SQLKit does not spell.
    var supportsAutoIncrement: Bool { false }
    var autoIncrementClause: any SQLExpression { SQLRaw("AUTOINCREMENT") }
    var enumSyntax: SQLEnumSyntax { .unsupported }
    var triggerSyntax: SQLTriggerSyntax {
        SQLTriggerSyntax(create: [.supportsBody, .supportsCondition, .supportsUpdateColumns], drop: [])
    }
    var alterTableSyntax: SQLAlterTableSyntax { SQLAlterTableSyntax(allowsBatch: false) }
    /// `ON CONFLICT … DO UPDATE` arrived in SQLite 3.24.0.
    var upsertSyntax: SQLUpsertSyntax { Self.libraryVersion >= 3_024_000 ? .standard : .unsupported }
    /// `RETURNING` arrived in SQLite 3.35.0.
    var supportsReturning: Bool { Self.libraryVersion >= 3_035_000 }
    var unionFeatures: SQLUnionFeatures { [.union, .unionAll, .intersect, .except] }

    /// SQLite's integers are all 64-bit: a BIGINT is its INTEGER (and so a rowid alias as a
    /// primary key).
    func customDataType(for dataType: SQLDataType) -> (any SQLExpression)? {
        if case .bigint = dataType { return SQLDataType.int }
        return nil
    }

    /// JSON paths through SQLite's `json_extract`.
    func nestedSubpathExpression(in column: any SQLExpression, for path: [String]) -> (any SQLExpression)? {
        guard !path.isEmpty else { return nil }
        return SQLFunction("json_extract", args: [column, SQLLiteral.string("$." + path.joined(separator: "."))])
    }
}
