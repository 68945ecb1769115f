import Foundation
import ProvisioCore
import ProvisioHTTP
import Testing
import Yams

@testable import ProvisioServer

/// Every error code is declared once, in error-codes.yaml, and Tools/generate-wire.sh writes the
/// constants and ProvisioHTTP's statuses from it (CI runs it with `--check`). These tests hold the
/// compiled result to the catalog and to the documents: a code a document lists under a 404 but
/// declared 400 fails `documentedCodesAreDeclaredWithTheirResponseStatus`.
@Suite struct ErrorCodeStatusTests {
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // OpenAPI
            .deletingLastPathComponent()  // ProvisioServerTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
    }

    /// error-codes.yaml as `code: status`, read independently of the generator.
    static func catalog() throws -> [String: Int] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("error-codes.yaml"), encoding: .utf8)
        let modules = try #require(try Yams.load(yaml: text) as? [String: [String: [String: Any]]])
        var statuses: [String: Int] = [:]
        for (_, codes) in modules {
            for (code, fields) in codes { statuses[code] = fields["status"] as? Int }
        }
        return statuses
    }

    @Test func theCompiledStatusesAreTheCatalogs() throws {
        let catalog = try Self.catalog()
        // Far fewer would mean the catalog lost its modules.
        #expect(catalog.count >= 200, "error-codes.yaml has only \(catalog.count) codes")
        let compiled = ProvisioError.Code.declaredStatuses.mapValues(\.rawValue)
        #expect(compiled == catalog, "generated statuses differ: \(Set(compiled.keys).symmetricDifference(catalog.keys))")
    }

    /// Codes compiled from several modules carry the catalog's status.
    @Test func compiledCodesAnswerTheirDeclaredStatus() {
        let expected: [(ProvisioError.Code, ProvisioError.Status)] = [
            (.invalidRequest, .badRequest), (.cardNotFound, .notFound), (.missingCredentials, .unauthorized),
            (.tokenScopeMismatch, .forbidden), (.payloadTooLarge, .contentTooLarge), (.requestTimeout, .requestTimeout),
            (.methodNotAllowed, .methodNotAllowed), (.cardClosed, .conflict), (.cardExpired, .unprocessableContent),
            (.chainUnknownRoot, .unprocessableContent), (.vaultKeyUnknown, .internalServerError),
            (.networkUnavailable, .badGateway), (.databaseUnavailable, .serviceUnavailable), (.invalidJSON, .badRequest),
            (.outboundHTTPSRequired, .badRequest), (.signInBusy, .tooManyRequests),
        ]
        for (code, status) in expected { #expect(code.status == status, "\(code)") }
    }

    /// Every code an error response of the served document lists in `x-error-codes` is declared
    /// with exactly that response's status.
    @Test func documentedCodesAreDeclaredWithTheirResponseStatus() throws {
        let spec = try OpenAPISpec.load()
        var checked = 0
        for operation in spec.operations {
            for key in (operation.object["responses"]?.objectValue ?? [:]).keys.sorted() {
                guard let status = Int(key), let response = try spec.response(of: operation, status: status),
                    let codes = response["x-error-codes"]?.arrayValue?.compactMap(\.stringValue)
                else { continue }
                for code in codes {
                    checked += 1
                    let declared = ProvisioError.Code.declaredStatuses[code]
                    #expect(
                        declared?.rawValue == status,
                        "\(operation.key) documents \(code) under \(status); error-codes.yaml says \(declared.map { "\($0.rawValue)" } ?? "nothing")"
                    )
                }
            }
        }
        #expect(checked > 0, "the document lists no x-error-codes")
    }

    @Test func aReceivedCodeIsABadGatewayAndEqualsTheDeclaredOne() {
        let received = ProvisioError.Code(received: "card_not_found")
        #expect(received.status == .badGateway)
        #expect(received == .cardNotFound)
        #expect(received.hashValue == ProvisioError.Code.cardNotFound.hashValue)
        #expect(Set([received, .cardNotFound]).count == 1)
        #expect(ProvisioError(received, "x") == ProvisioError(.cardNotFound, "x"))
    }

    @Test func aCodeNoCatalogDeclaresIsAnInternalError() {
        #expect(ProvisioError.Code("not_in_the_catalog").status == .internalServerError)
    }
}
