import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioHTTP
import Testing

/// `RuntimeErrorText` reads the English of swift-openapi-runtime and Foundation's decoder, which
/// offer no structured error for these cases. Each test makes the real library produce the text:
/// a release that rewords one fails here, not in an issuer's integration.
@Suite struct RuntimeErrorTextTests {
    @Test func aGeneratedTypeStillSaysAFieldIsUndeclared() throws {
        let body = Data(#"{"url":"https://issuer.example/hook","events":["*"],"surprise":1}"#.utf8)
        do {
            _ = try JSONDecoder().decode(Components.Schemas.CreateWebhookEndpointRequest.self, from: body)
            Issue.record("the undeclared field was accepted")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(RuntimeErrorText.isUndeclaredField(context), "\(context.debugDescription)")
            #expect(context.codingPath.last?.stringValue == "surprise")
        }
    }

    @Test func theDecoderStillSaysNoBytesAreNotJSON() throws {
        do {
            _ = try JSONDecoder().decode(Components.Schemas.CreateWebhookEndpointRequest.self, from: Data())
            Issue.record("no bytes decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(RuntimeErrorText.isNotJSON(context), "\(context.debugDescription)")
            #expect(!RuntimeErrorText.isUndeclaredField(context))
        }
    }

    /// The runtime's `ServerError`s arrive only through a running server: a missing query
    /// parameter is answered naming it, and a missing body as the strict parser answers no bytes.
    /// Were the text reworded, both would fall through to the generic `invalid_request`.
    @Test func theRuntimeStillNamesAMissingQueryParameterAndAMissingBody() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let noQuery = try await server.raw.get("/v1/cards", token: apiKey)
            #expect(noQuery.refused(400, .invalidParameter), "\(noQuery.text)")
            #expect(noQuery.error?.message == "The query parameter customer_ref is required.")
            let noBody = try await server.raw.send(.post, "/v1/mobile-sessions", token: apiKey, body: nil)
            #expect(noBody.refused(400, .invalidJson), "\(noBody.text)")
        }
    }
}
