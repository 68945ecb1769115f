import Foundation
import HTTPTypes
import ProvisioCore
import ProvisioHTTP
import ProvisioSandboxServer
import Testing

@testable import ProvisioServer

/// The sandbox's documents are its contract — its own (`sandbox-openapi.yaml`), its Android
/// wallets' (`sandbox-google-wallet-openapi.yaml`, `sandbox-samsung-wallet-openapi.yaml`) and the
/// network connector's it serves (`network-connector-openapi.yaml`): every error code they list is
/// declared with the status it is listed under, the service serves its own byte for byte, and
/// exactly the operations they mark public answer without the key.
@Suite struct SandboxOpenAPIDocumentTests {
    let spec = SandboxHTTPHarness.spec
    /// Every document the service answers to.
    static let specs = [
        SandboxHTTPHarness.spec, AnswerContract.googleWallet.spec, AnswerContract.samsungWallet.spec,
        AnswerContract.connector.spec,
    ]
    let specs = Self.specs

    @Test func everyListedCodeIsDeclaredWithItsResponseStatus() throws {
        var checked = 0
        for (spec, operation) in specs.flatMap({ spec in spec.operations.map { (spec, $0) } }) {
            for key in (operation.object["responses"]?.objectValue ?? [:]).keys.sorted() {
                guard let status = Int(key), status >= 400 else { continue }
                let response = try #require(try spec.response(of: operation, status: status))
                let codes = response["x-error-codes"]?.arrayValue?.compactMap(\.stringValue) ?? []
                #expect(!codes.isEmpty, "\(operation.key) \(status) lists no x-error-codes")
                for code in codes {
                    checked += 1
                    let declared = ProvisioError.Code.declaredStatuses[code]
                    #expect(
                        declared?.rawValue == status,
                        "\(operation.key) lists \(code) under \(status); error-codes.yaml declares \(declared.map { "\($0.rawValue)" } ?? "nothing")"
                    )
                }
            }
        }
        #expect(checked > 50)
    }

    /// Every schema of the document is closed: a field it does not declare is refused, in
    /// requests and in answers alike.
    @Test func everyObjectRefusesUndeclaredFields() throws {
        func objects(_ node: OpenAPIJSON, at path: String) -> [String] {
            var open: [String] = []
            if node["type"]?.stringValue == "object", node["additionalProperties"]?.boolValue != false {
                open.append(path)
            }
            for (key, child) in node.objectValue ?? [:] { open += objects(child, at: path + "/" + key) }
            for (index, child) in (node.arrayValue ?? []).enumerated() { open += objects(child, at: "\(path)/\(index)") }
            return open
        }
        for spec in specs { #expect(objects(spec.root, at: "#").isEmpty) }
    }

    /// The checks every sandbox answer goes through (`AnswerContract.sandbox`) are not vacuous:
    /// they take a documented answer and refuse one off this document.
    @Test func theContractRefusesAnswersOffThisDocument() {
        let requestID = "req_" + String(repeating: "0", count: 24)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[HTTPField.Name("X-Request-Id")!] = requestID
        func problems(_ status: Int, _ body: String, headers: HTTPFields = headers) -> [String] {
            AnswerContract.sandbox.problems(operationID: "getToken", status: status, headers: headers, body: Data(body.utf8))
        }
        func error(_ code: String, extra: String = "") -> String {
            #"{"error": {"code": "\#(code)", "message": "m", "request_id": "\#(requestID)"\#(extra)}}"#
        }
        #expect(problems(404, error("sandbox_network_token_unknown")).isEmpty)
        #expect(!problems(404, error("sandbox_pass_unknown")).isEmpty, "a code 404 does not list")
        #expect(!problems(404, error("sandbox_network_token_unknown", extra: #", "hint": "x""#)).isEmpty, "an open error")
        #expect(!problems(418, error("sandbox_network_token_unknown")).isEmpty, "an undocumented status")
        var noRequestID = headers
        noRequestID[HTTPField.Name("X-Request-Id")!] = nil
        #expect(!problems(404, error("sandbox_network_token_unknown"), headers: noRequestID).isEmpty)
        #expect(!problems(200, #"{"created_at": "2026-11-22T04:10:07.250Z"}"#).isEmpty, "a timestamp with fractions")
        #expect(!problems(200, #"{"pass_serial_number": null}"#).isEmpty, "null for a field left out")
        #expect(
            AnswerContract.sandbox.problems(operationID: "noSuchOperation", status: 200, headers: headers, body: Data()) != [])
    }

    @Test(arguments: TestEngine.available)
    func theServiceServesItsDocumentAndKeysAllButThePublicOperations(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server) { h in
                let document = try await h.raw(.get, "/openapi.yaml", authorization: .some(nil))
                #expect(document.status == 200 && document.header("Content-Type")?.hasPrefix("application/yaml") == true)
                #expect(document.body == h.spec.data)
                for (path, spec) in [
                    ("/openapi/google-wallet.yaml", AnswerContract.googleWallet.spec),
                    ("/openapi/samsung-wallet.yaml", AnswerContract.samsungWallet.spec),
                ] {
                    let served = try await h.raw(.get, path, authorization: .some(nil))
                    #expect(served.status == 200 && served.body == spec.data, "\(path) is the document, byte for byte")
                }

                for operation in Self.specs.flatMap(\.operations) {
                    let isPublic = operation.object["security"]?.arrayValue?.isEmpty == true
                    let path = operation.template.replacingOccurrences(
                        of: #"\{[a-z_]+\}"#, with: "phone", options: .regularExpression)
                    let answer = try await h.raw(
                        HTTPRequest.Method(operation.method.uppercased())!, path, authorization: .some(nil))
                    if isPublic {
                        #expect(answer.status == 200, "\(operation.key) is public")
                    } else {
                        #expect(answer.status == 401 && answer.hasSandboxErrorShape, "\(operation.key) needs the key")
                    }
                }
            }
        }
    }
}

extension SandboxHTTPHarness {
    var spec: OpenAPISpec { Self.spec }
}
