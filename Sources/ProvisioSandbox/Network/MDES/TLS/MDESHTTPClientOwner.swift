import AsyncHTTPClient

/// Owns the HTTP client of one MDES connection. AsyncHTTPClient requires `shutdown()` before a
/// client goes away (a debug build traps otherwise); a connection that is dropped without its
/// `shutdown()` (a test that throws, a command that exits early) still closes its client here.
final class MDESHTTPClientOwner: Sendable {
    let client: HTTPClient

    init(_ client: HTTPClient) {
        self.client = client
    }

    func shutdown() async {
        try? await client.shutdown()
    }

    deinit {
        // The task keeps the client alive until it has shut down; a second shutdown is harmless.
        let client = self.client
        Task { try? await client.shutdown() }
    }
}
