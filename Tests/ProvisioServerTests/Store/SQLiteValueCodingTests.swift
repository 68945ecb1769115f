import CSQLite
import Foundation
import Logging
import NIOPosix
import SQLKit
import Testing

@testable import ProvisioServer

/// The driver's own encoding of binds and decoding of rows: every type round-trips, and each is
/// stored exactly as SQLiteKit 4.5's `SQLiteDataEncoder` stored it, so databases written before
/// the driver had its own read the same.
@Suite struct SQLiteValueCodingTests {
    private enum Wallet: String, Codable { case phone, watch }

    private struct Pair: Codable, Sendable {
        var a = 1
        var b = "two"
    }

    let directory = NSTemporaryDirectory() + "provisio-coding-\(UUID().uuidString)"

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// A writer over a table with one untyped column, as SQLKit's store sees it; the caller
    /// closes the connection.
    private func makeDatabase() async throws -> (SQLiteNativeConnection, SQLiteNativeDatabase) {
        let connection = try SQLiteNativeConnection.open(path: directory + "/c.sqlite")
        let database = SQLiteNativeDatabase(
            connection: connection, placement: .pool(.singleton), logger: Logger(label: "coding-test"),
            eventLoop: MultiThreadedEventLoopGroup.singleton.any())
        try await database.raw("CREATE TABLE v (k INTEGER PRIMARY KEY, x ANY) STRICT").run()
        return (connection, database)
    }

    private func roundTrip<T: Codable & Sendable & Equatable>(_ value: T, in database: SQLiteNativeDatabase) async throws -> T? {
        try await database.raw("DELETE FROM v").run()
        try await database.raw("INSERT INTO v (k, x) VALUES (1, \(bind: value))").run()
        return try await database.raw("SELECT x FROM v").first(decodingColumn: "x", as: T.self)
    }

    @Test func everyBoundTypeRoundTrips() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (connection, database) = try await makeDatabase()
        defer { try? connection.close() }
        #expect(try await roundTrip("Zoë · 日本 · 🂡", in: database) == "Zoë · 日本 · 🂡")
        #expect(try await roundTrip("", in: database) == "")
        #expect(try await roundTrip(Int.min, in: database) == .min)
        #expect(try await roundTrip(Int64.max, in: database) == .max)
        #expect(try await roundTrip(Int32(-7), in: database) == -7)
        #expect(try await roundTrip(UInt8(255), in: database) == 255)
        #expect(try await roundTrip(UInt64(Int64.max), in: database) == UInt64(Int64.max))
        #expect(try await roundTrip(-1.5e300, in: database) == -1.5e300)
        #expect(try await roundTrip(Float(0.25), in: database) == 0.25)
        #expect(try await roundTrip(true, in: database) == true)
        #expect(try await roundTrip(false, in: database) == false)
        #expect(try await roundTrip(Data([0, 1, 0xff]), in: database) == Data([0, 1, 0xff]))
        #expect(try await roundTrip(Data(), in: database) == Data())
        // To the microsecond, as SQLiteKit read a Date back.
        let date = Date(timeIntervalSince1970: 1_795_000_000.25)
        #expect(try await roundTrip(date, in: database) == date)
        let id = UUID()
        #expect(try await roundTrip(id, in: database) == id)
        #expect(try await roundTrip(Wallet.watch, in: database) == .watch)
        #expect(try await roundTrip(String?.some("x"), in: database) == .some("x"))
        #expect(try await roundTrip(Int64?.some(5), in: database) == .some(5))
        #expect(try await roundTrip(Date?.some(date), in: database) == .some(date))
        #expect(try await roundTrip(String?.none, in: database) == .some(nil))
        #expect(try await roundTrip(Data?.none, in: database) == .some(nil))
    }

    /// What SQLiteKit 4.5.2 (over SQLiteNIO 1.13.2) stored, from its sources: a `Date` as a real,
    /// seconds since 1970 (`SQLiteData.float(timeIntervalSince1970)`); a `Bool` as the integer 1
    /// or 0; `Data` as a blob, an empty one included; a `UUID` as its uppercase `uuidString`
    /// (its `Encodable` single value); `nil` as NULL; a raw-value enum as its raw value.
    @Test func eachTypeIsStoredAsSQLiteKitStoredIt() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = UUID(uuidString: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")!
        let date = Date(timeIntervalSince1970: 1_795_000_000.5)
        let stored: [(any Encodable & Sendable, type: String, literal: String)] = [
            (date, "real", "1795000000.5"),
            (true, "integer", "1"),
            (false, "integer", "0"),
            (Data([0xde, 0xad, 0x00, 0xef]), "blob", "X'DEAD00EF'"),
            (Data(), "blob", "X''"),
            (id, "text", "'0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0'"),
            ("text", "text", "'text'"),
            (Int64(-42), "integer", "-42"),
            (UInt16(7), "integer", "7"),
            (2.5, "real", "2.5"),
            (Float(0.5), "real", "0.5"),
            (Wallet.phone, "text", "'phone'"),
            (String?.none, "null", "NULL"),
        ]
        let (connection, database) = try await makeDatabase()
        defer { try? connection.close() }
        for (key, entry) in stored.enumerated() {
            try await database.raw("INSERT INTO v (k, x) VALUES (\(bind: key), \(bind: entry.0))").run()
        }
        for (key, entry) in stored.enumerated() {
            let row = try await database.raw(
                """
                SELECT typeof(x) AS type, quote(x) AS literal, x IS \(unsafeRaw: entry.literal) AS same
                FROM v WHERE k = \(bind: key)
                """
            ).first()
            #expect(try row?.decode(column: "type", as: String.self) == entry.type, "\(type(of: entry.0))")
            #expect(try row?.decode(column: "literal", as: String.self) == entry.literal, "\(type(of: entry.0))")
            #expect(try row?.decode(column: "same", as: Bool.self) == true, "\(type(of: entry.0))")
        }
    }

    /// SQLiteKit fell back to JSON text for these; the driver refuses them by name instead.
    @Test func aValueWithoutOneSQLiteRepresentationIsRefused() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let refused: [any Encodable & Sendable] = [Pair(), ["a", "b"], [UInt8]([1, 2]), UInt64.max, [String: Int]()]
        let (connection, database) = try await makeDatabase()
        defer { try? connection.close() }
        for value in refused {
            await #expect {
                try await database.raw("INSERT INTO v (k, x) VALUES (1, \(bind: value))").run()
            } throws: { error in
                (error as? SQLiteFailure)?.code == SQLITE_MISMATCH
            }
        }
        let count = try await database.raw("SELECT count(*) AS n FROM v").first(decodingColumn: "n", as: Int.self)
        #expect(count == 0)
    }

    /// The conversions SQLiteNIO's `SQLiteDataConvertible` made on reading, kept.
    @Test func readingConvertsAsSQLiteKitDid() throws {
        #expect(try SQLiteValueDecoder.decode(String.self, from: .integer(5)) == "5")
        #expect(try SQLiteValueDecoder.decode(String.self, from: .float(1.5)) == "1.5")
        #expect(try SQLiteValueDecoder.decode(Double.self, from: .integer(3)) == 3)
        #expect(try SQLiteValueDecoder.decode(Bool.self, from: .text("1")) == true)
        #expect(try SQLiteValueDecoder.decode(Bool.self, from: .float(0)) == false)
        #expect(
            try SQLiteValueDecoder.decode(Date.self, from: .text("2026-11-27 06:00:00"))
                == Date(timeIntervalSince1970: 1_795_759_200))
        #expect(
            try SQLiteValueDecoder.decode(Date.self, from: .text("2026-11-27T06:00:00Z"))
                == Date(timeIntervalSince1970: 1_795_759_200))
        #expect(try SQLiteValueDecoder.decode(Date.self, from: .integer(60)) == Date(timeIntervalSince1970: 60))
        #expect(try SQLiteValueDecoder.decode(Int?.self, from: .null) == nil)
        // Integers are not parsed from text or truncated from reals, and must fit.
        let unread: [(any Decodable.Type, SQLiteValue)] = [
            (Int.self, .text("5")), (Int.self, .float(1)), (Int8.self, .integer(300)),
        ]
        for (type, value) in unread {
            #expect(throws: DecodingError.self) { _ = try SQLiteValueDecoder.decode(type, from: value) }
        }
        #expect(throws: DecodingError.self) { _ = try SQLiteValueDecoder.decode(Bool.self, from: .integer(2)) }
        #expect(throws: DecodingError.self) { _ = try SQLiteValueDecoder.decode(Data.self, from: .text("x")) }
        #expect(throws: DecodingError.self) { _ = try SQLiteValueDecoder.decode(String.self, from: .null) }
        #expect(throws: DecodingError.self) { _ = try SQLiteValueDecoder.decode(Pair.self, from: .text("{}")) }
    }

    /// The dialect writes the SQL SQLiteKit's did: the statements, and so their kept
    /// compilations, are the same text.
    @Test func theDialectWritesSQLiteKitsSQL() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (connection, database) = try await makeDatabase()
        defer { try? connection.close() }
        var serializer = SQLSerializer(database: database)
        database.update(SQLIdentifier("v"))
            .set("x", to: true)
            .where("k", .equal, 3)
            .returning("k")
            .query.serialize(to: &serializer)
        #expect(serializer.sql == #"UPDATE "v" SET "x" = ?1 WHERE "k" = ?2 RETURNING "k""#)
        let dialect = SQLiteNativeDialect()
        #expect(dialect.supportsReturning && dialect.upsertSyntax == .standard)
        #expect(dialect.unionFeatures == [.union, .unionAll, .intersect, .except])
    }
}
