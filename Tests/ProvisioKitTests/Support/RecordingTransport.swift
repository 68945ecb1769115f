import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import ProvisioClient
import ProvisioCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client's own transport (URLSession, no redirects), recording the operation of every
/// request that leaves the app: how a test proves a call was never made.
final class RecordingTransport: ClientTransport, Sendable {
    private let inner = URLSessionTransport(configuration: .init(session: ProvisioMobileClient.noRedirectSession))
    private let sent = Locked<[String]>([])

    /// The operation ids sent, in order (`listMobileTokens`, `activateMobileToken`, …).
    var operations: [String] { sent.value }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        sent.withLock { $0.append(operationID) }
        return try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}
