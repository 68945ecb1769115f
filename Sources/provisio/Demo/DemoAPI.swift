import AsyncHTTPClient
import Foundation
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import ProvisioAPI
import ProvisioClient
import ProvisioCore

/// Provisio's API as an issuer's backend or app calls it: the client generated from
/// openapi.yaml, one per credential. An answer outside 2xx is thrown as a
/// `ProvisioClientError` carrying the server's stable code.
struct DemoAPI: Sendable {
    let serverURL: URL

    init(baseURL: String) throws {
        guard let url = URL(string: baseURL), url.scheme == "http" || url.scheme == "https" else {
            throw ProvisioError(.invalidArgument, "The server URL must be an http or https URL.")
        }
        self.serverURL = url
    }

    /// One HTTP client for the demo's whole run (it lives as long as the process). A server that
    /// cannot be reached fails the call at once instead of being retried until the timeout.
    static let http: HTTPClient = {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(5), read: .seconds(30)))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// The generated client, sending `token` as its bearer credential.
    func client(_ token: String) -> Client {
        Client(
            serverURL: serverURL,
            transport: AsyncHTTPClientTransport(configuration: .init(client: Self.http, timeout: .seconds(30))),
            middlewares: [BearerCredentialMiddleware(token: token), ErrorAnswerMiddleware()])
    }

    /// The stable code of a failed call: the server's, or the client's own.
    static func code(of error: any Error) -> String {
        switch error {
        case let error as ProvisioClientError: error.code.rawValue
        case let error as ClientError: code(of: error.underlyingError)
        default: "client_transport_failed"
        }
    }
}
