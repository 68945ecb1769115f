import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP answer, as the client needs it.
public struct ProvisioHTTPResponse: Sendable, Hashable {
    public var status: Int
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Sends one request. `URLSessionTransport` in apps; tests may substitute their own.
public protocol ProvisioHTTPTransport: Sendable {
    func send(_ request: URLRequest) async throws -> ProvisioHTTPResponse
}

/// The transport over `URLSession` (FoundationNetworking on Linux). Cancelling the calling task
/// cancels the data task. Redirects are never followed: the request carries a bearer token,
/// and a redirect answer comes back as it is (the client then refuses it).
public struct URLSessionTransport: ProvisioHTTPTransport {
    public let session: URLSession

    /// A session of its own that refuses redirects; pass another session only if it does too.
    public init(session: URLSession = URLSessionTransport.noRedirectSession) {
        self.session = session
    }

    public static let noRedirectSession = URLSession(
        configuration: .ephemeral, delegate: RedirectRefusal(), delegateQueue: nil)

    public func send(_ request: URLRequest) async throws -> ProvisioHTTPResponse {
        let box = DataTaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ProvisioHTTPResponse, any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                        return
                    }
                    guard let http = response as? HTTPURLResponse else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                        return
                    }
                    var headers: [String: String] = [:]
                    for (name, value) in http.allHeaderFields {
                        if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                    }
                    continuation.resume(
                        returning: ProvisioHTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data()))
                }
                box.start(task)
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// Holds the data task so a cancellation arriving before or after it starts still cancels it.
private final class DataTaskBox: @unchecked Sendable {
    // @unchecked: `task` and `cancelled` are read and written only while holding `lock`.
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func start(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelled = self.cancelled
        lock.unlock()
        if cancelled { task.cancel() } else { task.resume() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}

/// Answers every redirect with "do not follow", so the Authorization header never reaches
/// another URL.
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
