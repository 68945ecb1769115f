import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
