import Foundation
import HTTPTypes
import ProvisioCore
import ProvisioHTTP
import Testing

@testable import ProvisioServer

/// The document itself: it parses, is OpenAPI 3.1, lists exactly the routes the server
/// registers, and is internally consistent (references resolve, every schema keyword is one
/// the generated types or `ValueBounds` check, error codes agree with the statuses they
/// declare).
@Suite struct OpenAPIDocumentTests {
    static let routes: Set<String> = [
        "GET /health",
        "GET /ready",
        "GET /metrics",
        "GET /openapi.yaml",
        "POST /v1/cards",
        "GET /v1/cards",
        "GET /v1/cards/{id}",
        "PATCH /v1/cards/{id}",
        "POST /v1/cards/{id}/close",
        "POST /v1/cards/{id}/lock",
        "POST /v1/cards/{id}/unlock",
        "POST /v1/cards/{id}/replace",
        "POST /v1/card-products", "GET /v1/card-products", "GET /v1/card-products/{id}",
        "PATCH /v1/card-products/{id}", "PUT /v1/card-products/{id}/art", "GET /v1/card-art/{digest}",
        "GET /v1/cards/{id}/provisioning-attempts",
        "POST /v1/cards/{id}/provisioning/apple-pay",
        "POST /v1/cards/{id}/provisioning/google-pay",
        "POST /v1/cards/{id}/provisioning/samsung-pay",
        "POST /v1/mobile-sessions",
        "DELETE /v1/mobile-sessions",
        "DELETE /v1/mobile-sessions/{id}",
        "POST /v1/provision-tokens",
        "GET /v1/api-keys",
        "POST /v1/api-keys",
        "DELETE /v1/api-keys/{id}",
        "GET /v1/audit-events",
        "POST /v1/network-keys",
        "GET /v1/mobile/cards",
        "GET /v1/mobile/tokens",
        "POST /v1/mobile/tokens/{id}/transitions",
        "POST /v1/mobile/tokens/{id}/activation",
        "POST /v1/mobile/cards/{id}/provisioning/apple-pay",
        "POST /v1/mobile/cards/{id}/provisioning/google-pay",
        "POST /v1/mobile/cards/{id}/provisioning/samsung-pay",
        "POST /v1/webhook-endpoints",
        "GET /v1/webhook-endpoints",
        "POST /v1/webhook-endpoints/{id}/test",
        "POST /v1/webhook-endpoints/{id}/rotate-secret",
        "GET /v1/webhook-deliveries",
        "GET /v1/webhook-deliveries/{id}",
        "POST /v1/webhook-deliveries/{id}/replay",
        "GET /v1/tokens",
        "GET /v1/tokens/{id}",
        "POST /v1/tokens/{id}/transitions",
        "POST /v1/tokens/{id}/activation",
        "GET /v1/settings/decisioning",
        "PUT /v1/settings/decisioning",
        "GET /v1/settings/activation-methods",
        "PUT /v1/settings/activation-methods",
        "GET /v1/settings/network",
        "PUT /v1/settings/network",
        "DELETE /v1/settings/network",
        "GET /v1/settings/google-pay",
        "PUT /v1/settings/google-pay",
        "POST /v1/settings/google-pay/signing-key/rotate",
        "POST /v1/network/token-requests",
        "POST /v1/network/tokens/{ref}/events",
        "POST /v1/network/tokens/{ref}/otp",
    ]

    let spec: OpenAPISpec

    init() throws {
        spec = try OpenAPISpec.load()
    }

    @Test func parsesAsOpenAPI31() throws {
        let version = try #require(spec.root["openapi"]?.stringValue)
        #expect(version.hasPrefix("3.1."))
        #expect(spec.root["info"]?["title"]?.stringValue?.isEmpty == false)
        #expect(spec.root["info"]?["version"]?.stringValue?.isEmpty == false)
    }

    @Test func listsEveryRouteWithItsMethods() {
        let documented = Set(spec.operations.map(\.key))
        #expect(documented.subtracting(Self.routes).isEmpty, "documented but not served: \(documented.subtracting(Self.routes))")
        #expect(Self.routes.subtracting(documented).isEmpty, "served but not documented: \(Self.routes.subtracting(documented))")
        let ids = spec.operations.compactMap { $0.object["operationId"]?.stringValue }
        #expect(ids.count == spec.operations.count, "every operation has an operationId")
        #expect(Set(ids).count == ids.count, "operationIds are unique")
    }

    @Test func securityMatchesEachAudience() throws {
        let schemes = try #require(spec.root["components"]?["securitySchemes"]?.objectValue)
        for name in ["apiKey", "mobileSession", "provisionToken"] {
            #expect(schemes[name]?["type"]?.stringValue == "http", "\(name)")
            #expect(schemes[name]?["scheme"]?.stringValue == "bearer", "\(name)")
        }
        for operation in spec.operations {
            let security = try #require(operation.object["security"]?.arrayValue, "\(operation.key) states its security")
            let names = security.map { requirement in requirement.objectValue?.keys.sorted() ?? [] }
            if operation.template.hasPrefix("/v1/mobile/tokens") {
                // The cardholder's tokens: a customer's session only, never a one-card push token.
                #expect(names == [["mobileSession"]], "\(operation.key)")
            } else if operation.template.hasPrefix("/v1/mobile/") {
                #expect(names == [["mobileSession"], ["provisionToken"]], "\(operation.key)")
            } else if operation.template.hasPrefix("/v1/network/") {
                #expect(names == [["networkKey"]], "\(operation.key)")
            } else if operation.template.hasPrefix("/v1/card-art/") {
                // Card art: wallets and networks fetch it without credentials.
                #expect(names.isEmpty, "\(operation.key) is public")
            } else if operation.template.hasPrefix("/v1/") {
                #expect(names == [["apiKey"]], "\(operation.key)")
                #expect(try spec.response(of: operation, status: 401) != nil, "\(operation.key) documents 401")
                #expect(try spec.response(of: operation, status: 403) != nil, "\(operation.key) documents 403")
            } else {
                #expect(names.isEmpty, "\(operation.key) is unauthenticated")
            }
        }
    }

    @Test func everyPostTakesAnIdempotencyKeyAndEveryResponseARequestId() throws {
        for operation in spec.operations {
            let parameters = try spec.parameters(of: operation)
            let takesKey = parameters.contains {
                $0["name"]?.stringValue == "Idempotency-Key" && $0["in"]?.stringValue == "header"
            }
            #expect(takesKey == (operation.method == "post"), "\(operation.key) Idempotency-Key")
            for segment in OpenAPISpec.segments(operation.template) where segment.hasPrefix("{") {
                let name = String(segment.dropFirst().dropLast())
                #expect(
                    parameters.contains { $0["name"]?.stringValue == name && $0["in"]?.stringValue == "path" },
                    "\(operation.key) declares the path parameter \(name)")
            }
            let responses = try #require(operation.object["responses"]?.objectValue)
            for status in responses.keys.sorted() {
                let response = try #require(try spec.response(of: operation, status: Int(status) ?? -1), "\(status)")
                let headers = try spec.headers(of: response)
                #expect(headers["X-Request-Id"]?["required"]?.boolValue == true, "\(operation.key) \(status) X-Request-Id")
                if operation.method == "post", status.hasPrefix("2") {
                    #expect(headers["Idempotent-Replayed"] != nil, "\(operation.key) \(status) Idempotent-Replayed")
                }
                if status.hasPrefix("4") || status.hasPrefix("5") {
                    let schema = response["content"]?["application/json"]?["schema"]?["$ref"]?.stringValue
                    #expect(schema == "#/components/schemas/Error", "\(operation.key) \(status) uses the error shape")
                }
            }
        }
    }

    @Test func everyReferenceResolves() throws {
        var refs: [String] = []
        func walk(_ node: OpenAPIJSON) {
            switch node {
            case .object(let object):
                if let ref = object["$ref"]?.stringValue { refs.append(ref) }
                object.values.forEach(walk)
            case .array(let array):
                array.forEach(walk)
            default:
                break
            }
        }
        walk(spec.root)
        #expect(refs.count > 50)
        for ref in Set(refs).sorted() {
            #expect(throws: Never.self, "\(ref)") { try spec.pointer(ref) }
        }
    }

    /// Every schema, named or inline, uses only keywords that something checks: the generated
    /// types when they decode (`ValueBounds.decodedKeywords`), `ValueBounds` for the rest, or
    /// annotations; a new keyword (`pattern`, `oneOf`, …) fails here until a check covers it.
    /// And every object a response can contain is closed with `additionalProperties: false`.
    @Test func schemasUseOnlyCheckedKeywords() throws {
        let schemas = try #require(spec.root["components"]?["schemas"]?.objectValue)
        for (name, schema) in schemas.sorted(by: { $0.key < $1.key }) {
            try expectCheckedKeywords(schema, at: "\(ValueBounds.refPrefix)\(name)")
        }
        var reachedFromResponses: Set<String> = []
        for operation in spec.operations {
            for parameter in try spec.parameters(of: operation) {
                let schema = try #require(parameter["schema"], "\(operation.key) parameter schema")
                try expectCheckedKeywords(schema, at: "\(operation.key) parameter")
            }
            if let schema = try spec.requestSchema(of: operation) {
                try expectCheckedKeywords(schema, at: "\(operation.key) request")
            }
            for status in (operation.object["responses"]?.objectValue ?? [:]).keys {
                let response = try #require(try spec.response(of: operation, status: Int(status) ?? -1))
                for (_, media) in response["content"]?.objectValue ?? [:] {
                    let schema = try #require(media["schema"])
                    try expectCheckedKeywords(schema, at: "\(operation.key) \(status)")
                    reachedFromResponses.formUnion(referencedSchemas(schema, in: schemas))
                }
            }
        }
        #expect(reachedFromResponses.contains("Card") && reachedFromResponses.contains("Error"))
        for name in reachedFromResponses.sorted() {
            try expectClosedObjects(try #require(schemas[name]), at: name)
        }
    }

    private func expectCheckedKeywords(_ schema: OpenAPIJSON, at path: String) throws {
        let keywords = try #require(schema.objectValue, "\(path) is a schema object")
        let known = ValueBounds.decodedKeywords.union(ValueBounds.checkedKeywords).union(ValueBounds.annotationKeywords)
        for key in keywords.keys.sorted() {
            #expect(known.contains(key), "\(path): the keyword '\(key)' is checked by nothing")
        }
        if let format = keywords["format"] {
            #expect(ValueBounds.formats.contains(format.stringValue ?? ""), "\(path): the format \(format) is checked by nothing")
        }
        if let ref = keywords["$ref"]?.stringValue {
            #expect(ref.hasPrefix(ValueBounds.refPrefix), "\(path): $ref \(ref) is not a component schema")
        }
        // Bounds `ValueBounds` can read (it skips anything that is not a number).
        for bound in ["minLength", "maxLength"] {
            guard let value = keywords[bound] else { continue }
            #expect((value.numericValue ?? -1) >= 0, "\(path): \(bound) \(value)")
        }
        for bound in ["minimum", "maximum"] {
            guard let value = keywords[bound] else { continue }
            #expect(value.numericValue != nil, "\(path): \(bound) \(value)")
        }
        if let additional = keywords["additionalProperties"] {
            #expect(additional.boolValue != nil, "\(path): additionalProperties is a schema, which nothing checks")
        }
        for (name, property) in keywords["properties"]?.objectValue ?? [:] {
            try expectCheckedKeywords(property, at: "\(path).\(name)")
        }
        if let items = keywords["items"] { try expectCheckedKeywords(items, at: "\(path)[]") }
    }

    /// The component schemas `schema` reaches through `$ref`, transitively.
    private func referencedSchemas(_ schema: OpenAPIJSON, in schemas: [String: OpenAPIJSON], seen: Set<String> = [])
        -> Set<String>
    {
        var reached = seen
        if let ref = schema["$ref"]?.stringValue, ref.hasPrefix(ValueBounds.refPrefix) {
            let name = String(ref.dropFirst(ValueBounds.refPrefix.count))
            if !reached.contains(name), let target = schemas[name] {
                reached.insert(name)
                reached = referencedSchemas(target, in: schemas, seen: reached)
            }
        }
        for property in (schema["properties"]?.objectValue ?? [:]).values {
            reached = referencedSchemas(property, in: schemas, seen: reached)
        }
        if let items = schema["items"] { reached = referencedSchemas(items, in: schemas, seen: reached) }
        return reached
    }

    private func expectClosedObjects(_ schema: OpenAPIJSON, at path: String) throws {
        if schema["type"]?.stringValue == "object" {
            #expect(schema["additionalProperties"]?.boolValue == false, "\(path) is closed")
            let properties = schema["properties"]?.objectValue ?? [:]
            let required = schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(Set(required).isSubset(of: properties.keys), "\(path) requires only properties it declares")
            for (name, property) in properties {
                try expectClosedObjects(property, at: "\(path).\(name)")
            }
        }
        if let items = schema["items"] { try expectClosedObjects(items, at: "\(path)[]") }
    }

    /// The error codes: the enum (generated from error-codes.yaml) lists exactly the codes the
    /// document's responses list, and each operation's response lists only codes declared with
    /// that response's status.
    @Test func errorCodesAgreeWithTheirDeclaredStatus() throws {
        let enumerated = try #require(spec.root["components"]?["schemas"]?["ErrorCode"]?["enum"]?.arrayValue)
            .compactMap(\.stringValue)
        #expect(Set(enumerated).count == enumerated.count, "ErrorCode has no duplicates")
        for operation in spec.operations {
            for status in (operation.object["responses"]?.objectValue ?? [:]).keys.sorted() {
                let response = try #require(try spec.response(of: operation, status: Int(status) ?? -1))
                guard let codes = response["x-error-codes"]?.arrayValue?.compactMap(\.stringValue) else {
                    #expect(!status.hasPrefix("4") && !status.hasPrefix("5"), "\(operation.key) \(status) lists x-error-codes")
                    continue
                }
                #expect(!codes.isEmpty)
                for code in codes {
                    let declared = ProvisioError.Code.declaredStatuses[code].map { "\($0.rawValue)" }
                    #expect(
                        declared == status,
                        "\(code) is \(declared ?? "undeclared"), but \(operation.key) lists it under \(status)")
                }
            }
        }
        // Every x-error-codes anywhere in the document (shared responses included).
        func listed(in node: OpenAPIJSON) -> Set<String> {
            var codes = Set(node["x-error-codes"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            for (_, child) in node.objectValue ?? [:] { codes.formUnion(listed(in: child)) }
            for child in node.arrayValue ?? [] { codes.formUnion(listed(in: child)) }
            return codes
        }
        let all = listed(in: spec.root)
        #expect(all == Set(enumerated), "ErrorCode enum vs. codes the responses list: \(all.symmetricDifference(enumerated))")
    }
}
