import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ProvisioCore
import ProvisioCrypto
import ProvisioHTTP
import _CryptoExtras

/// A loopback HTTP server standing in for MDES's Customer Service API under
/// `/mdes/csapi/v2/…`. Like Mastercard's gateway it verifies every request's OAuth 1.0a signature
/// with `OAuth1Verifier` (consumer key, timestamp, body hash, signature, nonce) and refuses what
/// does not verify with 401; then it checks the body against Provisio's document of the API and
/// answers as told: the changed token, or one of MDES's refusals.
final class MDESStandIn: Sendable {
    /// How to answer a request that verified.
    enum Answer: Sendable {
        case changed
        /// A status and a body, sent as they are.
        case raw(status: Int, body: String)
    }

    struct Received: Sendable {
        var path: String
        var body: OpenAPIJSON
        /// What the verifier or the document check found wrong; empty for a good request.
        var problems: [String]
        var verifiedConsumerKey: String?
    }

    private struct State {
        var received: [Received] = []
        var answer: Answer = .changed
        /// `CurrentStatusCode` a search answers, and the suspenders it lists.
        var searchStatus = "A"
        var suspenders: [String] = []
        var server: RunningApplication?
        var port = 0
    }

    static let basePath = "/mdes/csapi"
    private let state = Locked(State())
    private let verifier: OAuth1Verifier

    init(consumerKey: String, publicKey: _RSA.Signing.PublicKey) {
        verifier = OAuth1Verifier(consumers: [consumerKey: publicKey], nonceStore: InMemoryOAuth1NonceStore())
    }

    var port: Int { state.withLock { $0.port } }
    /// The tenant's `customer_service_url`.
    var url: String { "http://127.0.0.1:\(port)\(Self.basePath)" }
    var requests: [Received] { state.withLock { $0.received } }
    func setAnswer(_ answer: Answer) { state.withLock { $0.answer = answer } }
    func setSearchStatus(_ status: String, suspenders: [String] = []) {
        state.withLock {
            $0.searchStatus = status
            $0.suspenders = suspenders
        }
    }

    func start() async throws {
        let router = Router()
        router.post("**") { [self] request, _ -> Response in
            var request = request
            let body = Data(buffer: try await request.collectBody(upTo: 1 << 20))
            let path = request.uri.path
            var problems: [String] = []
            var consumer: String?
            do {
                // The URL as the client addressed it: what it signed.
                let verified = try await verifier.verify(
                    authorization: request.headers[.authorization] ?? "", method: "POST", url: "http://127.0.0.1:\(port)\(path)",
                    body: body, at: Date())
                consumer = verified.consumerKey
            } catch let error as ProvisioError {
                problems.append("OAuth: \(error.code.rawValue)")
            }
            let json = (try? OpenAPIJSON.parse(body)) ?? .null
            if problems.isEmpty {
                problems += MDESCustomerServiceDocument.shared.problems(
                    post: String(path.dropFirst(Self.basePath.count)), body: json)
            }
            let verifiedRequest = consumer != nil
            let (answer, status, suspenders) = state.withLock { state in
                state.received.append(Received(path: path, body: json, problems: problems, verifiedConsumerKey: consumer))
                return (state.answer, state.searchStatus, state.suspenders)
            }
            guard verifiedRequest else {
                return Self.json(
                    401, #"{"Errors":{"Error":[{"Source":"Gateway","ReasonCode":"AUTHENTICATION_FAILED","Description":"x"}]}}"#)
            }
            switch answer {
            case .changed where path.hasSuffix("/v2/search"):
                let reference = json["SearchRequest"]?["TokenUniqueReference"]?.stringValue ?? ""
                let listed = suspenders.map { "\"\($0)\"" }.joined(separator: ",")
                return Self.json(
                    200,
                    #"{"SearchResponse":{"Accounts":{"Account":[{"AccountPanSuffix":"1111","Tokens":{"Token":[{"#
                        + #""TokenUniqueReference":"\#(reference)","CurrentStatusCode":"\#(status)","#
                        + #""Suspenders":{"Suspender":[\#(listed)]}}]}}]}}}"#)
            case .changed:
                // {"TokenSuspendRequest": {...}} is answered {"TokenSuspendResponse": {"Token": {...}}}.
                guard let (name, inner) = json.objectValue?.first, name.hasSuffix("Request"),
                    let reference = inner["TokenUniqueReference"]?.stringValue
                else { return Self.json(400, #"{"Errors":{"Error":[{"Source":"INPUT","ReasonCode":"INVALID_JSON"}]}}"#) }
                let response = name.dropLast("Request".count) + "Response"
                return Self.json(200, #"{"\#(response)":{"Token":{"TokenUniqueReference":"\#(reference)","CommentId":"42"}}}"#)
            case .raw(let status, let body):
                return Self.json(status, body)
            }
        }
        let started = try await LoopbackApplication.start(router, label: "mdes-stand-in")
        state.withLock {
            $0.server = started
            $0.port = started.port
        }
    }

    /// Stops the server gracefully, in the background: tests call this from `defer`.
    func stop() {
        guard let server = state.withLock({ $0.server }) else { return }
        Task { await server.stop() }
    }

    private static func json(_ status: Int, _ body: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(
            status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
