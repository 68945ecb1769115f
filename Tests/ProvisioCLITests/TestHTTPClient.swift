import AsyncHTTPClient
import OpenAPIAsyncHTTPClient

/// The HTTP client of the tests' generated clients. Its pool forgets idle connections after
/// 10 s, well before a server's 30 s idle timeout closes them: with the shared client's 60 s, a
/// request could take a connection at the moment the server closed it ("I/O on closed channel"),
/// a failure of the test setup, not of the server.
enum TestHTTPClient {
    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(connectionPool: .init(idleTimeout: .seconds(10))))

    static var transport: AsyncHTTPClientTransport {
        AsyncHTTPClientTransport(configuration: .init(client: client))
    }
}
