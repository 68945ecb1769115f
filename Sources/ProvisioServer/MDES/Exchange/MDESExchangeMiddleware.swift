import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ProvisioCore
import ProvisioCrypto
import ProvisioHTTP
import ProvisioJSON

/// Everything around an MDES operation, on the MDES listener: reads the body within the limits,
/// holds it to strict JSON (no key twice; unknown fields are the generated decoder's to ignore),
/// checks the tenant, and makes `requestId` unique per tenant across restarts and servers. The
/// same `requestId` with the same body gets the first answer again (its status and body; MDES
/// retries after a timeout), with another body or while the first is running a refusal. Every
/// refusal, here or in a handler, is answered `{"responseId", "errorCode", "errorDescription"}`.
struct MDESExchangeMiddleware: RouterMiddleware {
    typealias Context = MDESRequestContext

    let store: SQLProvisioStore
    let digester: KeyedDigester
    let clock: any TimeSource
    /// A claim whose server never answered (it crashed) blocks a retry this long.
    let lease: TimeInterval

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var responseID = context.requestID
        do {
            guard let route = MDESRoute(path: request.uri.path) else {
                throw MDESRefusal(.invalidFieldValue, "No such operation.", status: .notFound)
            }
            guard request.method == .post else {
                throw MDESRefusal(.invalidFieldValue, "Operations take POST.", status: .methodNotAllowed)
            }
            var request = request
            let bytes = Data(buffer: try await RequestBodyReader.collect(&request, context: context, dialect: .provisio))
            let (body, requestID) = try Self.parse(bytes)
            responseID = requestID
            guard try await store.tenantExists(id: route.tenantID) else { throw MDESRefusal.value("tenant_id") }
            if route.operation == "getAccountInformation" {
                throw MDESRefusal(.unsupportedOperation, "getAccountInformation is not supported by this issuer.")
            }
            return try await exchange(
                request, bytes: bytes, body: body, route: route, requestID: requestID, context: context, next: next)
        } catch {
            let refusal = MDESErrorMapping.refusal(for: error)
            log(refusal, error: error, context: context)
            return Self.response(refusal, responseID: responseID)
        }
    }

    /// Claims `requestId`, holds the body to the document's bounds, runs the operation, and
    /// remembers its answer (not a failure of Provisio's own, which MDES's retry should get
    /// another chance at).
    private func exchange(
        _ request: Request, bytes: Data, body: JSONValue, route: MDESRoute, requestID: String, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let now = clock.now()
        let claim = MDESExchangeClaim(
            tenantID: route.tenantID, requestKey: digester.digest([Data(route.tenantID.utf8), Data(requestID.utf8)]),
            operation: route.operation,
            bodyDigest: digester.digest([Data(route.operation.utf8), RequestJSON.canonical(bytes) ?? bytes]),
            claimID: RandomToken.identifier(prefix: "mdx_"), claimedAt: now)
        switch try await store.claimMDESExchange(claim, staleBefore: now.addingTimeInterval(-lease)) {
        case .claimed:
            break
        case .answered(let status, let answer):
            return Self.replay(status: status, answer: answer, responseID: requestID)
        case .reusedWithOtherBody:
            throw MDESRefusal(.invalidFieldValue, "Invalid Field Value - requestId (already used for another request)")
        case .inProgress:
            throw MDESRefusal(.invalidFieldValue, "Invalid Field Value - requestId (the same request is in progress)")
        }
        // What the operation writes and needs nothing back from (a new token, its history and
        // webhooks) waits to commit with the answer: one transaction for both.
        let pending = PendingWrites()
        var response: Response
        do {
            try MDESFieldRules.request(route.operation)?.check(body, at: "")
            response = try await PendingWrites.$current.withValue(pending) { try await next(request, context) }
        } catch {
            let refusal = MDESErrorMapping.refusal(for: error)
            log(refusal, error: error, context: context)
            response = Self.response(refusal, responseID: requestID)
        }
        guard response.status.code < 500 else {
            // What a failed operation deferred is dropped, and MDES's retry runs it again.
            _ = pending.take()
            try? await store.releaseMDESExchange(claim)
            return response
        }
        do {
            let collector = BodyCollector()
            try await response.body.write(collector)
            let body = collector.buffer
            try await store.completeMDESExchange(
                claim, status: response.status.code, answer: Self.answerTemplate(Data(buffer: body)), with: pending)
            response.body = .init(byteBuffer: body)
            return response
        } catch {
            // The answer and what it deferred were not stored: let the retry run again.
            _ = pending.take()
            try? await store.releaseMDESExchange(claim)
            throw error
        }
    }

    /// The strictly parsed body and its `requestId` (1 to 64 characters, as the document says:
    /// it is stored only as a keyed digest and echoed only to MDES, so nothing else is asked of it).
    static func parse(_ bytes: Data) throws -> (JSONValue, String) {
        guard !bytes.isEmpty else { throw MDESRefusal.missing("requestId") }
        let value: JSONValue
        do {
            value = try StrictJSONParser.parse(bytes)
        } catch  where error.kind == .duplicateKey {
            throw MDESRefusal(.invalidJson, "The request body has a key twice in one object.")
        } catch {
            throw MDESRefusal(.invalidJson, "The request body is not valid JSON.")
        }
        guard case .object(let object) = value else { throw MDESRefusal(.invalidJson, "The request body is not a JSON object.") }
        guard let field = object["requestId"] else { throw MDESRefusal.missing("requestId") }
        guard let text = field.stringValue else { throw MDESRefusal.format("requestId") }
        guard (1...64).contains(text.unicodeScalars.count) else { throw MDESRefusal.length("requestId") }
        // MDES's numeric ids would often look like card numbers, so they are not refused as such.
        return (value, text)
    }

    /// The answer as stored: its JSON without `responseId`, which a replay puts back.
    static func answerTemplate(_ body: Data) -> String {
        guard case .object(let object) = try? StrictJSONParser.parse(body),
            let trimmed = JSONObject(members: object.members.filter { $0.key != "responseId" })
        else { return "{}" }
        return String(decoding: JSONValue.object(trimmed).canonicalData(), as: UTF8.self)
    }

    static func replay(status: Int, answer: String, responseID: String) -> Response {
        var object = (try? StrictJSONParser.parse(Data(answer.utf8)))?.objectValue ?? JSONObject()
        _ = object.insert(.string(responseID), forKey: "responseId")
        return jsonResponse(status: status, body: Data(JSONValue.object(object).canonicalData()))
    }

    static func response(_ refusal: MDESRefusal, responseID: String) -> Response {
        let object: JSONValue = [
            "responseId": .string(responseID), "errorCode": .string(refusal.code.rawValue),
            "errorDescription": .string(refusal.errorDescription),
        ]
        return jsonResponse(status: Int(refusal.status.code), body: Data(object.canonicalData()))
    }

    static func jsonResponse(status: Int, body: Data) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The code and the error's type only: a description could quote what MDES sent.
    private func log(_ refusal: MDESRefusal, error: any Error, context: Context) {
        let metadata: Logger.Metadata = [
            "code": "\(refusal.code.rawValue)", "status": "\(refusal.status.code)", "error_type": "\(type(of: error))",
        ]
        if refusal.status.code >= 500 {
            context.logger.error("MDES request failed", metadata: metadata)
        } else {
            context.logger.info("MDES request refused", metadata: metadata)
        }
    }
}
