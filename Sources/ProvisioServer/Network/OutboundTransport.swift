import Foundation
import HTTPTypes
import OpenAPIRuntime
import ProvisioCore
import ProvisioNetworkConnector

/// A generated client's transport over `OutboundHTTPClient` (a network connector's, whatever its
/// dialect), so its calls get the outbound guard — the URL and every address it resolves to
/// checked by the policy, the connection pinned to the checked address, no redirect followed (a
/// bearer key never follows one to another host), the answer read only up to a bound — whatever
/// operation it sends.
struct OutboundTransport: ClientTransport {
    let client: OutboundHTTPClient
    let timeout: Duration
    let maximumAnswerBytes: Int
    /// Requests are small JSON objects; a larger one is a mistake of ours, not sent.
    static let maximumRequestBytes = 64 * 1024

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        // The guarded client sends POSTs only; so does every connector operation.
        guard request.method == .post, var url = URLComponents(string: baseURL.absoluteString),
            let target = URLComponents(string: request.path ?? "")
        else {
            throw ProvisioError(.networkUnavailable, "The card network's operation \(operationID) cannot be sent.")
        }
        url.percentEncodedPath += target.percentEncodedPath
        url.percentEncodedQuery = target.percentEncodedQuery
        var bytes: [UInt8] = []
        if let body { bytes = try await [UInt8](collecting: body, upTo: Self.maximumRequestBytes) }
        let answer = try await client.post(
            url.string ?? "", headers: request.headerFields.map { ($0.name.canonicalName, $0.value) }, body: Data(bytes),
            timeout: timeout, maximumAnswerBytes: maximumAnswerBytes)
        return (HTTPResponse(status: .init(code: answer.status)), HTTPBody(answer.body))
    }
}
