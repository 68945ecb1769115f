import Foundation
import ProvisioCore
import SQLKit
import Testing

@testable import ProvisioServer

/// `CardRecord` goes through SQLKit's model coding (`RecordCoding`): each column keeps the kind
/// the hand-written binds gave it, on every engine; the sealed PAN and its digest stay text.
@Suite struct CardRecordCodingTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000.123)

    static let card = CardRecord(
        id: "card_1", tenantID: "ten_a", customerRef: "cust_1", accountRef: "acc_1", panVaultRecord: "pv1.kek_x.AA.BB",
        last4: "1111", network: .visa, expiryMonth: 12, expiryYear: 2030, cardholderName: "Jane", productTitle: "Gold",
        cardArtURL: "https://example.com/a.png", primaryAccountIdentifier: "V-1", status: .active, createdAt: t0,
        updatedAt: t0, panFingerprint: "fp1.abc")

    @Test func columnsAreThePropertiesInSnakeCase() {
        #expect(RecordCoding.column("tenantID") == "tenant_id")
        #expect(RecordCoding.column("cardArtURL") == "card_art_url")
        #expect(RecordCoding.column("last4") == "last4")
        #expect(RecordCoding.column("panVaultRecord") == "pan_vault_record")
        #expect(RecordCoding.column("primaryAccountIdentifier") == "primary_account_identifier")
        #expect(RecordCoding.column("aB2C") == "a_b2_c")
        #expect(RecordCoding.column("urlPath") == "url_path")
        #expect(RecordCoding.column("URLPath") == "url_path")
    }

    @Test(arguments: TestEngine.available)
    func aCardIsStoredWithTheColumnKindsItHadAndReadBackEqual(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await store.insertTenant(TenantRecord(id: "ten_a", name: "A", createdAt: Self.t0))
            try await store.insertCard(Self.card)
            var expected = Self.card
            expected.createdAt = Date(epochMilliseconds: Self.t0.epochMilliseconds)
            expected.updatedAt = expected.createdAt
            #expect(try await store.card(id: "card_1", tenantID: "ten_a") == expected)

            let kinds = try await Self.kinds(
                ["pan_vault_record", "pan_fingerprint", "created_at", "network", "status", "expiry_month", "account_ref"],
                engine, database.handle)
            // Text, never a blob, for the sealed PAN and its digest; dates as integers.
            for column in ["pan_vault_record", "pan_fingerprint", "network", "status", "account_ref"] {
                #expect(kinds[column] == "text", "\(column)")
            }
            #expect(kinds["created_at"] == (engine == .sqlite ? "integer" : "bigint"))
            #expect(kinds["expiry_month"] == "integer")
            let millis = try await database.handle.read { database in
                try await database.raw("SELECT created_at FROM cards").first()?.decode(column: "created_at", as: Int64.self)
            }
            #expect(millis == Self.t0.epochMilliseconds)
        }
    }

    @Test(arguments: TestEngine.available)
    func aReissueWritesTheDetailsAndNothingThatIdentifiesTheCard(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await store.insertTenant(TenantRecord(id: "ten_a", name: "A", createdAt: Self.t0))
            try await store.insertCard(Self.card)
            var changed = Self.card
            (changed.productTitle, changed.cardArtURL, changed.expiryYear) = (nil, "https://example.com/b.png", 2031)
            (changed.customerRef, changed.panVaultRecord, changed.panFingerprint) = ("cust_2", "pv1.other", nil)
            let later = Self.t0.addingTimeInterval(60)
            let stored = try #require(try await store.updateCardDetails(changed, changedFields: ["x"], at: later))
            #expect(stored.productTitle == nil && stored.cardArtURL == "https://example.com/b.png" && stored.expiryYear == 2031)
            #expect(stored.customerRef == "cust_1" && stored.panVaultRecord == "pv1.kek_x.AA.BB")
            #expect(stored.panFingerprint == "fp1.abc")
            #expect(stored.updatedAt.epochMilliseconds == later.epochMilliseconds)
        }
    }

    @Test(arguments: TestEngine.available)
    func anUnknownNetworkOrStatusReadsAsBefore(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await store.insertTenant(TenantRecord(id: "ten_a", name: "A", createdAt: Self.t0))
            try await store.insertCard(Self.card)
            try await database.handle.write { database in
                try await database.raw("UPDATE cards SET network = 'zeta', status = 'frozen'").run()
            }
            let card = try #require(try await store.card(id: "card_1", tenantID: "ten_a"))
            #expect(card.network == .unknown && card.status == .closed)
        }
    }

    @Test(arguments: TestEngine.available)
    func aMissingOptionalColumnReadsAsNilAndAMissingRequiredOneNamesItsProperty(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await store.insertTenant(TenantRecord(id: "ten_a", name: "A", createdAt: Self.t0))
            try await store.insertCard(Self.card)
            let required = [
                "id", "tenant_id", "customer_ref", "pan_vault_record", "last4", "network", "expiry_month", "expiry_year",
                "cardholder_name", "primary_account_identifier", "status", "created_at", "updated_at",
            ]
            try await database.handle.read { database in
                let row = try #require(
                    try await database.raw("SELECT \(unsafeRaw: required.joined(separator: ", ")) FROM cards").first())
                let card = try row.decode(record: CardRecord.self)
                #expect(card.accountRef == nil && card.productTitle == nil && card.cardArtURL == nil)
                #expect(card.panFingerprint == nil && card.id == "card_1" && card.status == .active)
                #expect(card.createdAt.epochMilliseconds == Self.t0.epochMilliseconds)

                let withoutLast4 = required.filter { $0 != "last4" }.joined(separator: ", ")
                let short = try #require(try await database.raw("SELECT \(unsafeRaw: withoutLast4) FROM cards").first())
                let error = #expect(throws: (any Error).self) { try short.decode(record: CardRecord.self) }
                // Which property failed, and never a stored value.
                #expect("\(String(describing: error))".contains("last4"))
                #expect(!"\(String(describing: error))".contains("pv1.kek_x"))
            }
        }
    }

    /// The stored kind of each column of the one card: SQLite's `typeof`, PostgreSQL's `pg_typeof`.
    static func kinds(_ columns: [String], _ engine: TestEngine, _ handle: any DatabaseHandle) async throws -> [String: String] {
        let function = engine == .sqlite ? "typeof" : "pg_typeof"
        let cast = engine == .sqlite ? "" : "::text"
        let list = columns.map { "\(function)(\($0))\(cast) AS \($0)" }.joined(separator: ", ")
        return try await handle.read { database in
            let row = try #require(try await database.raw("SELECT \(unsafeRaw: list) FROM cards").first())
            var kinds: [String: String] = [:]
            for column in columns { kinds[column] = try row.decode(column: column, as: String.self) }
            return kinds
        }
    }
}
