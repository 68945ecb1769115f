import Foundation
import HTTPTypes
import OpenAPIRuntime
import ProvisioAPI
import Testing

/// The checks every answer goes through are not vacuous: decoding into the generated types,
/// `ValueBounds` and `AnswerContract` each accept a correct answer and refuse wrong ones, and
/// `DocumentedAnswers` turns a refusal into an issue of the running test.
@Suite struct AnswerContractTests {
    static let card: OpenAPIJSON = [
        "id": "card_3f9a1c2b7d4e5f6a8b9c", "customer_ref": "cust_1", "last4": "1111", "network": "visa", "expiry_month": 12,
        "expiry_year": 2030, "cardholder_name": "Jane Appleseed", "primary_account_identifier": "V-4821730956128374650912",
        "status": "active", "created_at": "2026-11-22T04:10:07Z", "updated_at": "2026-11-22T04:10:07Z",
    ]

    static func cardWith(_ change: (inout OpenAPIJSON) -> Void) -> OpenAPIJSON {
        var card = card
        change(&card)
        return card
    }

    static var contract: AnswerContract { AnswerContract.provisio }

    static func schema(_ name: String) -> OpenAPIJSON {
        contract.spec.root["components"]?["schemas"]?[name] ?? .null
    }

    /// Whether the generated type refuses `json`.
    static func decodingFails<T: Decodable>(_ json: OpenAPIJSON, as type: T.Type) -> Bool {
        guard let data = try? APIJSON.encode(json) else { return false }
        return (try? APIJSON.decode(type, from: data)) == nil
    }

    @Test func acceptsACorrectCard() throws {
        let withOptionals = Self.cardWith {
            $0["account_ref"] = "acct_9"
            $0["product_title"] = "Acme Platinum"
            $0["card_art_url"] = "https://cdn.example/art.png"
        }
        for card in [Self.card, withOptionals] {
            #expect(!Self.decodingFails(card, as: Components.Schemas.Card.self))
            #expect(Self.contract.bounds.mismatches(card, Self.schema("Card")).isEmpty)
        }
        let list: OpenAPIJSON = ["data": [Self.card, withOptionals]]
        #expect(!Self.decodingFails(list, as: Components.Schemas.CardList.self))
        #expect(Self.contract.bounds.mismatches(list, Self.schema("CardList")).isEmpty)
    }

    struct WrongCard: Sendable, CustomTestStringConvertible {
        enum Catcher: Sendable { case decoding, bounds }
        let what: String
        let catcher: Catcher
        let card: OpenAPIJSON
        var testDescription: String { what }

        init(_ what: String, _ catcher: Catcher, _ change: (inout OpenAPIJSON) -> Void) {
            self.what = what
            self.catcher = catcher
            self.card = AnswerContractTests.cardWith(change)
        }
    }

    /// What the homemade validator refused, each now refused by one of the two checks.
    static let wrongCards: [WrongCard] = [
        WrongCard("a required property is missing", .decoding) { $0["last4"] = nil },
        WrongCard("an undocumented property", .decoding) { $0["pan"] = "4111111111111111" },
        WrongCard("a wrong type", .decoding) { $0["expiry_month"] = "12" },
        WrongCard("a boolean is not an integer", .decoding) { $0["expiry_year"] = true },
        WrongCard("a fraction is not an integer", .decoding) { $0["expiry_year"] = .number(2030.5) },
        WrongCard("a value outside the enum", .decoding) { $0["status"] = "frozen" },
        WrongCard("an enum through $ref", .decoding) { $0["network"] = "diners" },
        WrongCard("a malformed date-time", .decoding) { $0["created_at"] = "22/11/2026" },
        WrongCard("an impossible date-time", .decoding) { $0["updated_at"] = "2026-13-22T04:10:07Z" },
        WrongCard("a date-time with an offset", .decoding) { $0["updated_at"] = "2026-11-22T05:10:07+01:00" },
        WrongCard("a date-time with a fraction", .decoding) { $0["created_at"] = "2026-11-22T04:10:07.250Z" },
        WrongCard("a string that is too short", .bounds) { $0["last4"] = "111" },
        WrongCard("a string that is too long", .bounds) { $0["last4"] = "11111" },
        WrongCard("a number out of range", .bounds) { $0["expiry_month"] = 13 },
        WrongCard("a year out of range", .bounds) { $0["expiry_year"] = 30 },
        WrongCard("null for an omitted optional", .bounds) { $0["account_ref"] = .null },
    ]

    @Test(arguments: AnswerContractTests.wrongCards)
    func refusesAWrongCard(_ wrong: WrongCard) {
        let decodingFails = Self.decodingFails(wrong.card, as: Components.Schemas.Card.self)
        let mismatches = Self.contract.bounds.mismatches(wrong.card, Self.schema("Card"))
        switch wrong.catcher {
        case .decoding: #expect(decodingFails, "\(wrong.what) must fail decoding")
        case .bounds: #expect(!mismatches.isEmpty, "\(wrong.what) must break a bound")
        }
    }

    @Test func reportsThePathOfNestedMismatchesAndRefusesWrongErrors() {
        let list: OpenAPIJSON = ["data": [Self.card, Self.cardWith { $0["last4"] = "11" }], "next_cursor": "MTc2Mzc4"]
        #expect(Self.contract.bounds.mismatches(list, Self.schema("CardList")).first?.hasPrefix("$.data[1].last4") == true)
        #expect(
            Self.decodingFails(["data": [Self.card, Self.cardWith { $0["network"] = 7 }]], as: Components.Schemas.CardList.self))
        #expect(Self.decodingFails(["data": Self.card], as: Components.Schemas.CardList.self))

        let error: OpenAPIJSON = ["error": ["code": "card_not_found", "message": "No card.", "request_id": "req_1"]]
        #expect(!Self.decodingFails(error, as: Components.Schemas._Error.self))
        let wrongErrors: [OpenAPIJSON] = [
            ["error": ["code": "teapot", "message": "No card.", "request_id": "req_1"]],
            ["code": "card_not_found", "message": "No card."],
            ["error": ["code": "card_not_found", "message": "x"]],
            ["error": ["code": "card_not_found", "message": "x", "request_id": "req_1", "detail": "x"]],
        ]
        for wrong in wrongErrors {
            #expect(Self.decodingFails(wrong, as: Components.Schemas._Error.self), "\(wrong)")
        }
    }

    @Test func checksFormatsAndTimestamps() throws {
        let uri: OpenAPIJSON = ["type": "string", "format": "uri"]
        #expect(Self.contract.bounds.mismatches("https://cdn.example/a.png", uri).isEmpty)
        #expect(!Self.contract.bounds.mismatches("not a uri", uri).isEmpty)
        let dateTime: OpenAPIJSON = ["type": "string", "format": "date-time"]
        #expect(Self.contract.bounds.mismatches("2026-11-22T04:10:07Z", dateTime).isEmpty)
        #expect(!Self.contract.bounds.mismatches("2026-11-22 04:10:07", dateTime).isEmpty)

        let timestamp = StrictTimestamp()
        let date = try timestamp.decode("2026-11-22T04:10:07Z")
        #expect(try timestamp.encode(date) == "2026-11-22T04:10:07Z")
        for wrong in ["2026-11-22T04:10:07.250Z", "2026-11-22T04:10:07+00:00", "2026-02-30T04:10:07Z", "2026-11-22t04:10:07z"] {
            #expect(throws: StrictTimestamp.Refusal.self, "\(wrong)") { try timestamp.decode(wrong) }
        }
    }

    @Test func parsesAndWritesJSONWithoutConfusingBooleansAndNumbers() throws {
        let text = #"{"a":[true,1,1.5,"x",null,{}]}"#
        let value = try OpenAPIJSON.parse(Data(text.utf8))
        #expect(value == ["a": [true, 1, .number(1.5), "x", .null, [:]]])
        #expect(String(decoding: try APIJSON.encode(value), as: UTF8.self) == text)
        var request = try OpenAPIJSON(encoding: Components.Schemas.MobileSessionRequest(customerRef: "c", ttlSeconds: 60))
        #expect(request == ["customer_ref": "c", "ttl_seconds": 60])
        request["extra"] = 1
        #expect(request["extra"] == 1)
    }

    static func headers(requestID: String? = "req_0123", replayed: Bool = false) -> HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if let requestID { headers[HTTPField.Name("X-Request-Id")!] = requestID }
        if replayed { headers[HTTPField.Name("Idempotent-Replayed")!] = "true" }
        return headers
    }

    /// The contract flags an undocumented status, a missing required header, a replay marker or
    /// content type the response does not document, a broken bound, and an error that is not
    /// the `Error` schema, names a code its response does not list or another request id.
    @Test func theContractFlagsWrongAnswers() throws {
        let card = try APIJSON.encode(Self.card)
        func problems(_ status: Int, _ headers: HTTPFields = Self.headers(), body: Data, id: String = "getCard") -> [String] {
            Self.contract.problems(operationID: id, status: status, headers: headers, body: body)
        }
        #expect(problems(200, body: card).isEmpty)
        #expect(
            Self.contract.problems(method: "GET", path: "/v1/cards/card_1", status: 200, headers: Self.headers(), body: card)
                .isEmpty)
        #expect(problems(418, body: card).contains { $0.contains("not documented") })
        #expect(problems(200, Self.headers(requestID: nil), body: card).contains { $0.contains("X-Request-Id") })
        #expect(problems(200, Self.headers(replayed: true), body: card).contains { $0.contains("Idempotent-Replayed") })
        #expect(problems(201, Self.headers(replayed: true), body: card, id: "createCard").isEmpty)
        var html = Self.headers()
        html[.contentType] = "text/html"
        #expect(problems(200, html, body: card).contains { $0.contains("content type") })
        #expect(problems(200, body: try APIJSON.encode(Self.cardWith { $0["last4"] = "1" })).contains { $0.contains("last4") })
        #expect(
            !Self.contract.problems(method: "DELETE", path: "/v1/cards/card_1", status: 200, headers: Self.headers(), body: card)
                .isEmpty)
        #expect(!problems(200, body: card, id: "noSuchOperation").isEmpty)

        func error(_ code: String, _ requestID: String = "req_0123") throws -> Data {
            try APIJSON.encode(
                ["error": ["code": .string(code), "message": "x", "request_id": .string(requestID)]] as OpenAPIJSON)
        }
        #expect(problems(404, body: try error("card_not_found")).isEmpty)
        #expect(problems(404, body: try error("card_closed")).contains { $0.contains("x-error-codes") })
        #expect(problems(404, body: try error("card_not_found", "req_other")).contains { $0.contains("request_id") })
        #expect(problems(404, body: try error("teapot")).contains { $0.contains("Error schema") })
        #expect(problems(404, body: card).contains { $0.contains("Error schema") })
    }

    /// The middleware records the contract's complaints as issues of the test that made the call.
    @Test func documentedAnswersRecordsAnIssueForAnUndocumentedAnswer() async throws {
        let middleware = DocumentedAnswers(log: ServedAnswers())
        let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/v1/cards/card_1")
        let url = try #require(URL(string: "http://127.0.0.1"))
        let card = try APIJSON.encode(Self.card)
        // A documented answer passes untouched, bytes and all.
        let (_, body) = try await middleware.intercept(request, body: nil, baseURL: url, operationID: "getCard") { _, _, _ in
            (HTTPResponse(status: .ok, headerFields: Self.headers()), HTTPBody(card))
        }
        #expect(try await Data(collecting: try #require(body), upTo: 1 << 20) == card)
        await withKnownIssue("an answer without X-Request-Id") {
            _ = try await middleware.intercept(request, body: nil, baseURL: url, operationID: "getCard") { _, _, _ in
                (HTTPResponse(status: .ok, headerFields: Self.headers(requestID: nil)), HTTPBody(card))
            }
        }
        await withKnownIssue("an undocumented status") {
            _ = try await middleware.intercept(request, body: nil, baseURL: url, operationID: "getCard") { _, _, _ in
                (HTTPResponse(status: 418, headerFields: Self.headers()), HTTPBody(card))
            }
        }
        #expect(middleware.log?.all.map(\.status) == [200, 200, 418])
    }
}
