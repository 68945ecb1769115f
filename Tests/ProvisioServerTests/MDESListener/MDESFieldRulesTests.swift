import Foundation
import Testing
import Yams

@testable import ProvisioServer

/// The listener's bounds (`MDESFieldRules`) are the document's: derived here from
/// `mdes-issuer-outbound-openapi.yaml` and required equal, operation by operation and for the
/// decrypted payload. Then, over the listener, what the document allows passes and what it
/// forbids is refused with the matching code.
@Suite struct MDESFieldRulesTests {
    static let document: OpenAPIJSON = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ProvisioNetworkConnector/MDES/mdes-issuer-outbound-openapi.yaml")
        return try! OpenAPIJSON.fromYAML(try Yams.load(yaml: try String(contentsOf: url, encoding: .utf8)))
    }()

    @Test func theTableIsTheDocument() throws {
        for operation in MDESRoute.operations.sorted() {
            let schema = try #require(
                Self.document["paths"]?["/mdes/{tenant_id}/issuerServices/1/0/\(operation)"]?["post"]?["requestBody"]?[
                    "content"]?["application/json"]?["schema"], "\(operation)")
            #expect(MDESFieldRules.request(operation) == (try Self.rule(schema)), "\(operation)")
        }
        let plaintext = try #require(Self.document["components"]?["schemas"]?["FundingAccountPlaintext"])
        #expect(MDESFieldRules.plaintext == (try Self.rule(plaintext)))
    }

    /// The bounds of a schema, as `MDESFieldRule` holds them; nil where there are none.
    static func rule(_ schema: OpenAPIJSON) throws -> MDESFieldRule? {
        let keywords = flatten(schema)
        if let choices = keywords["anyOf"]?.arrayValue {
            // Open enumerations: a known list or any string, with no bound of their own.
            for choice in choices { #expect(try rule(choice) == nil, "a bound inside anyOf") }
            return nil
        }
        switch keywords["type"]?.stringValue {
        case "object":
            var properties: [String: MDESFieldRule] = [:]
            for (name, property) in keywords["properties"]?.objectValue ?? [:] {
                properties[name] = try rule(property)
            }
            return properties.isEmpty ? nil : .object(properties)
        case "array":
            let items = try keywords["items"].flatMap(rule)
            let minItems = keywords["minItems"]?.numericValue.map { Int($0) }
            return items == nil && minItems == nil ? nil : .array(items: items, minItems: minItems)
        case "string":
            let minimum = keywords["minLength"]?.numericValue.map { Int($0) }
            let maximum = keywords["maxLength"]?.numericValue.map { Int($0) }
            let length = minimum == nil && maximum == nil ? nil : (minimum ?? 0)...(maximum ?? Int.max)
            let pattern = try keywords["pattern"]?.stringValue.map(Self.pattern)
            return length == nil && pattern == nil ? nil : .string(length: length, pattern: pattern)
        case "integer":
            guard let minimum = keywords["minimum"]?.numericValue, let maximum = keywords["maximum"]?.numericValue else {
                return nil
            }
            return .integer(Int(minimum)...Int(maximum))
        default:
            return nil
        }
    }

    /// `$ref` and `allOf` resolved into one set of keywords; the schema's own win.
    static func flatten(_ schema: OpenAPIJSON) -> [String: OpenAPIJSON] {
        var keywords: [String: OpenAPIJSON] = [:]
        if let ref = schema["$ref"]?.stringValue,
            let target = document["components"]?["schemas"]?[String(ref.dropFirst("#/components/schemas/".count))]
        {
            keywords.merge(flatten(target)) { $1 }
        }
        for part in schema["allOf"]?.arrayValue ?? [] { keywords.merge(flatten(part)) { $1 } }
        for (key, value) in schema.objectValue ?? [:] where key != "$ref" && key != "allOf" { keywords[key] = value }
        return keywords
    }

    struct UnknownPattern: Error { let pattern: String }

    static func pattern(_ text: String) throws -> MDESFieldPattern {
        switch text {
        case "^([0-9A-Fa-f]{2})*$": return .hexBytes
        case "^[!-~]+$": return .visibleASCII
        default:
            guard text.hasPrefix("^[0-9]{"), text.hasSuffix("}$") else { throw UnknownPattern(pattern: text) }
            let counts = text.dropFirst("^[0-9]{".count).dropLast(2).split(separator: ",").compactMap { Int($0) }
            switch counts.count {
            case 1: return .digits(counts[0]...counts[0])
            case 2: return .digits(counts[0]...counts[1])
            default: throw UnknownPattern(pattern: text)
            }
        }
    }

    @Test func patternsMatchAsTheDocumentMeansThem() {
        #expect(MDESFieldPattern.hexBytes.matches("") && MDESFieldPattern.hexBytes.matches("0aF9"))
        #expect(!MDESFieldPattern.hexBytes.matches("0aF") && !MDESFieldPattern.hexBytes.matches("0g"))
        #expect(MDESFieldPattern.digits(4...8).matches("0123") && !MDESFieldPattern.digits(4...8).matches("012"))
        #expect(!MDESFieldPattern.digits(2...2).matches("1a") && !MDESFieldPattern.digits(2...2).matches("١٢"))
        #expect(MDESFieldPattern.visibleASCII.matches("DWSPMC00af") && !MDESFieldPattern.visibleASCII.matches("DW SP"))
    }

    @Test(arguments: TestEngine.available)
    func whatTheDocumentAllowsIsAccepted(_ engine: TestEngine) async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await MDESListenerHarness.run(engine) { mdes in
            _ = try await mdes.server.api(mdes.apiKey).createWebhookEndpoint(
                body: .json(.init(url: receiver.url, events: [.token_otpRequested]))
            ).created
            receiver.setAnswer(#"{"channels":[{"type":"sms","masked":"******4821"}]}"#)
            // A requestId with a space and a letter outside ASCII: 1 to 64 characters is all the
            // document asks.
            try await MDESActivationTests.pending(mdes, "TUR-FORMAT-1", receiver: receiver, requestID: "req é 1")
            // The document's own example code, and its longest one.
            for code in ["A1B2C3D4", String(repeating: "Z9", count: 16)] {
                let delivered = try await MDESActivationTests.deliver(mdes, "TUR-FORMAT-1", code: code)
                #expect(delivered.status == 200, "\(delivered.text)")
                #expect(
                    try WebhookEvent<WebhookPayload.OTPRequested>(try #require(receiver.deliveries.last).body).data.code == code)
            }
            #expect(try await MDESActivationTests.validate(mdes, "TUR-FORMAT-1", "wrong-code") == "INCORRECT_CODE")
            #expect(
                try await MDESActivationTests.validate(mdes, "TUR-FORMAT-1", String(repeating: "Z9", count: 16)) == "SUCCESS")
        }
    }

    @Test(arguments: TestEngine.available)
    func whatTheDocumentForbidsIsRefusedByName(_ engine: TestEngine) async throws {
        try await MDESListenerHarness.run(engine) { mdes in
            func refused(_ name: String, _ body: [String: Any], _ operation: String = "authorizeService") async throws
                -> MDESListenerHarness.Answer
            {
                let answer = try await mdes.post(operation, body)
                #expect(answer.status == 400 && answer.json["decision"] == nil, "\(name): \(answer.text)")
                return answer
            }
            var body = try mdes.authorize(reference: "TUR-BOUND-1")
            body["correlationId"] = String(repeating: "c", count: 15)
            var answer = try await refused("correlationId", body)
            #expect(
                answer.errorCode == "INVALID_FIELD_LENGTH" && answer["errorDescription"] == "Invalid Field Length - correlationId"
            )

            body = try mdes.authorize(reference: "TUR-BOUND-2")
            body["tokenRequestorId"] = "5011003027x"
            answer = try await refused("tokenRequestorId", body)
            #expect(answer.errorCode == "INVALID_FIELD_FORMAT", "\(answer.text)")

            body = try mdes.authorize(reference: "TUR-BOUND-3")
            body["deviceInfo"] = ["formFactor": "PHONE", "deviceName": String(repeating: "d", count: 65)]
            answer = try await refused("deviceName", body)
            #expect(answer["errorDescription"] == "Invalid Field Length - deviceInfo.deviceName", "\(answer.text)")

            body = try mdes.authorize(
                reference: "TUR-BOUND-4",
                payload: try mdes.encrypt(
                    mdes.cardPlaintext(extra: ["accountHolderData": ["accountHolderName": String(repeating: "n", count: 28)]])))
            answer = try await refused("accountHolderName", body)
            #expect(
                answer["errorDescription"] == "Invalid Field Length - encryptedData.accountHolderData.accountHolderName",
                "\(answer.text)")

            body = try mdes.authorize(reference: "TUR-BOUND-5", payload: try mdes.encrypt(mdes.cardPlaintext(month: "1")))
            answer = try await refused("expiryMonth", body)
            #expect(answer.errorCode == "INVALID_FIELD_FORMAT", "\(answer.text)")

            answer = try await refused(
                "activationCode",
                [
                    "requestId": "code-33", "tokenUniqueReference": "TUR-BOUND-1", "correlationId": "corr-1",
                    "activationCode": String(repeating: "1", count: 33),
                ], "validateActivationCode")
            #expect(answer.errorCode == "INVALID_FIELD_LENGTH", "\(answer.text)")

            answer = try await refused(
                "tokens", ["requestId": "tokens-0", "reasonCode": "STATUS_UPDATE", "tokens": [[String: Any]]()],
                "notifyTokenUpdated")
            #expect(answer.errorCode == "INVALID_FIELD_LENGTH", "\(answer.text)")
            for reference in ["TUR-BOUND-1", "TUR-BOUND-2", "TUR-BOUND-3", "TUR-BOUND-4", "TUR-BOUND-5"] {
                #expect(try await mdes.token(reference) == nil)
            }
        }
    }
}
