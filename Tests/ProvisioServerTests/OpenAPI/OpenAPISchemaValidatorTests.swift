import Foundation
import HTTPTypes
import Testing

/// The validator is not vacuous: it accepts a correct object and rejects wrong ones at the
/// right JSON path, and it refuses schemas outside its subset instead of passing them.
@Suite struct OpenAPISchemaValidatorTests {
    let spec: OpenAPISpec
    var validator: OpenAPISchemaValidator { spec.validator }

    init() throws {
        spec = try OpenAPISpec.load()
    }

    static let card: OpenAPIJSON = .object([
        "id": .string("card_3f9a1c2b7d4e5f6a8b9c"),
        "customer_ref": .string("cust_1"),
        "last4": .string("1111"),
        "network": .string("visa"),
        "expiry_month": .integer(12),
        "expiry_year": .integer(2030),
        "cardholder_name": .string("Jane Appleseed"),
        "primary_account_identifier": .string("V-4821730956128374650912"),
        "status": .string("active"),
        "created_at": .string("2026-11-22T04:10:07Z"),
        "updated_at": .string("2026-11-22T04:10:07Z"),
    ])

    static func cardWith(_ change: (inout [String: OpenAPIJSON]) -> Void) -> OpenAPIJSON {
        var object = card.objectValue!
        change(&object)
        return .object(object)
    }

    func mismatch(_ instance: OpenAPIJSON, _ schemaName: String) throws -> OpenAPISchemaValidator.Mismatch? {
        try validator.firstMismatch(instance, try validator.schema(named: schemaName))
    }

    @Test func acceptsACorrectCard() throws {
        #expect(try mismatch(Self.card, "Card") == nil)
        let withOptionals = Self.cardWith {
            $0["account_ref"] = .string("acct_9")
            $0["product_title"] = .string("Acme Platinum")
            $0["card_art_url"] = .string("https://cdn.example/art.png")
        }
        #expect(try mismatch(withOptionals, "Card") == nil)
        #expect(try mismatch(.object(["data": .array([Self.card, withOptionals])]), "CardList") == nil)
    }

    struct WrongCard: Sendable, CustomTestStringConvertible {
        let what: String
        let path: String
        let card: OpenAPIJSON
        var testDescription: String { what }

        init(_ what: String, _ path: String, _ change: (inout [String: OpenAPIJSON]) -> Void) {
            self.what = what
            self.path = path
            self.card = OpenAPISchemaValidatorTests.cardWith(change)
        }
    }

    static let wrongCards: [WrongCard] = [
        WrongCard("a required property is missing", "$.last4") { $0["last4"] = nil },
        WrongCard("an undocumented property", "$.pan") { $0["pan"] = .string("4111111111111111") },
        WrongCard("a wrong type", "$.expiry_month") { $0["expiry_month"] = .string("12") },
        WrongCard("a boolean is not an integer", "$.expiry_year") { $0["expiry_year"] = .bool(true) },
        WrongCard("a fraction is not an integer", "$.expiry_year") { $0["expiry_year"] = .number(2030.5) },
        WrongCard("a value outside the enum", "$.status") { $0["status"] = .string("frozen") },
        WrongCard("an enum through $ref", "$.network") { $0["network"] = .string("diners") },
        WrongCard("a malformed date-time", "$.created_at") { $0["created_at"] = .string("22/11/2026") },
        WrongCard("an impossible date-time", "$.updated_at") { $0["updated_at"] = .string("2026-13-22T04:10:07Z") },
        WrongCard("a string that is too short", "$.last4") { $0["last4"] = .string("111") },
        WrongCard("a string that is too long", "$.last4") { $0["last4"] = .string("11111") },
        WrongCard("a number out of range", "$.expiry_month") { $0["expiry_month"] = .integer(13) },
        WrongCard("null for an omitted optional", "$.account_ref") { $0["account_ref"] = .null },
    ]

    @Test(arguments: OpenAPISchemaValidatorTests.wrongCards)
    func rejectsAWrongCard(_ wrong: WrongCard) throws {
        let found = try #require(try mismatch(wrong.card, "Card"), "\(wrong.what) must be rejected")
        #expect(found.path == wrong.path, "\(wrong.what): \(found)")
    }

    @Test func reportsThePathOfNestedMismatches() throws {
        let list = OpenAPIJSON.object([
            "data": .array([Self.card, Self.cardWith { $0["network"] = .integer(7) }]),
            "next_cursor": .string("MTc2Mzc4NDYwNzAwMDpjYXJkXzE"),
        ])
        #expect(try mismatch(list, "CardList")?.path == "$.data[1].network")
        #expect(try mismatch(.object(["data": Self.card]), "CardList")?.path == "$.data")

        let error = OpenAPIJSON.object([
            "error": .object(["code": .string("card_not_found"), "message": .string("No card."), "request_id": .string("req_1")])
        ])
        #expect(try mismatch(error, "Error") == nil)
        let unknownCode = OpenAPIJSON.object([
            "error": .object(["code": .string("teapot"), "message": .string("No card."), "request_id": .string("req_1")])
        ])
        #expect(try mismatch(unknownCode, "Error")?.path == "$.error.code")
        let flat = OpenAPIJSON.object(["code": .string("card_not_found"), "message": .string("No card.")])
        #expect(try mismatch(flat, "Error")?.path == "$.error")
        let noRequestID = OpenAPIJSON.object(["error": .object(["code": .string("card_not_found"), "message": .string("x")])])
        #expect(try mismatch(noRequestID, "Error")?.path == "$.error.request_id")
    }

    @Test func supportsTypeListsAndFormats() throws {
        let schema = OpenAPIJSON.object(["type": .array([.string("string"), .string("integer")]), "minLength": .integer(2)])
        #expect(try validator.firstMismatch(.string("ab"), schema) == nil)
        #expect(try validator.firstMismatch(.integer(1), schema) == nil)
        #expect(try validator.firstMismatch(.string("a"), schema)?.path == "$")
        #expect(try validator.firstMismatch(.bool(true), schema)?.reason.contains("boolean") == true)
        #expect(try validator.firstMismatch(.null, schema) != nil)

        let uri = OpenAPIJSON.object(["type": .string("string"), "format": .string("uri")])
        #expect(try validator.firstMismatch(.string("https://cdn.example/a.png"), uri) == nil)
        #expect(try validator.firstMismatch(.string("not a uri"), uri) != nil)
        #expect(OpenAPISchemaValidator.looksLikeDateTime("2026-11-22T04:10:07.250+01:00"))
        #expect(!OpenAPISchemaValidator.looksLikeDateTime("2026-11-22 04:10:07"))
    }

    @Test func refusesSchemasOutsideTheSubset() throws {
        let oneOf = OpenAPIJSON.object(["oneOf": .array([.object(["type": .string("string")])])])
        #expect(throws: OpenAPISchemaValidator.SchemaError.self) { try validator.firstMismatch(.string("x"), oneOf) }
        let dangling = OpenAPIJSON.object(["$ref": .string("#/components/schemas/NoSuchThing")])
        #expect(throws: OpenAPISchemaValidator.SchemaError.self) { try validator.firstMismatch(.string("x"), dangling) }
        let openEnded = OpenAPIJSON.object(["type": .string("object"), "additionalProperties": .object([:])])
        #expect(throws: OpenAPISchemaValidator.SchemaError.self) { try validator.firstMismatch(.object([:]), openEnded) }
        let badFormat = OpenAPIJSON.object(["type": .string("string"), "format": .string("email")])
        #expect(throws: OpenAPISchemaValidator.SchemaError.self) { try validator.firstMismatch(.integer(1), badFormat) }
    }

    @Test func parsesJSONWithoutConfusingBooleansAndNumbers() throws {
        let value = try OpenAPIJSON.parse(Data(#"{"a": [true, 1, 1.5, "x", null, {}]}"#.utf8))
        #expect(value == .object(["a": .array([.bool(true), .integer(1), .number(1.5), .string("x"), .null, .object([:])])]))
    }

    /// The response checker flags a body that breaks the schema, an undocumented status and an
    /// error code the response does not list.
    @Test func conformanceCheckerFlagsWrongResponses() throws {
        var conformance = OpenAPIConformance(spec: spec)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[HTTPField.Name("X-Request-Id")!] = "req_0123"
        func response(_ status: Int, _ json: OpenAPIJSON) -> APIClient.Response {
            APIClient.Response(status: status, headers: headers, body: Data(json.jsonText.utf8))
        }

        #expect(conformance.problems(response(200, Self.card), "GET", "/v1/cards/card_1").problems.isEmpty)
        let wrong = conformance.problems(response(200, Self.cardWith { $0["pan"] = .string("4111") }), "GET", "/v1/cards/card_1")
        #expect(wrong.problems.contains { $0.contains("$.pan") })
        #expect(!conformance.problems(response(418, Self.card), "GET", "/v1/cards/card_1").problems.isEmpty)
        let misfiled = OpenAPIJSON.object([
            "error": .object(["code": .string("card_closed"), "message": .string("x"), "request_id": .string("req_0123")])
        ])
        #expect(
            conformance.problems(response(404, misfiled), "GET", "/v1/cards/card_1").problems.contains {
                $0.contains("x-error-codes")
            })
        #expect(!conformance.problems(response(200, Self.card), "DELETE", "/v1/cards/card_1").problems.isEmpty)
        var bare = HTTPFields()
        bare[.contentType] = "application/json"
        let noRequestID = APIClient.Response(status: 200, headers: bare, body: Data(Self.card.jsonText.utf8))
        #expect(conformance.problems(noRequestID, "GET", "/v1/cards/card_1").problems.contains { $0.contains("X-Request-Id") })
    }
}

extension OpenAPIJSON {
    /// JSON text for test fixtures.
    var jsonText: String {
        switch self {
        case .string(let string):
            String(decoding: try! JSONEncoder().encode(string), as: UTF8.self)
        case .array(let array):
            "[\(array.map(\.jsonText).joined(separator: ","))]"
        case .object(let object):
            "{\(object.keys.sorted().map { "\(OpenAPIJSON.string($0).jsonText):\(object[$0]!.jsonText)" }.joined(separator: ","))}"
        default:
            description
        }
    }
}
