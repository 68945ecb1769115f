import Foundation
import ProvisioCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A typed async client of Provisio's mobile API (`/v1/mobile/`), for the issuer's app.
///
/// - Credentials: a mobile session or a provision token, sent as `Authorization: Bearer`.
/// - Every call has a hard timeout for the whole exchange (default 15 s, so an in-app add fits
///   in Apple's 20 s); on expiry the request is cancelled and `client_timeout` thrown.
/// - Errors are `ProvisioClientError`s carrying the server's stable code.
public struct ProvisioMobileClient: Sendable {
    /// Leaves 5 of Apple's 20 seconds for PassKit itself.
    public static let defaultTimeout: Duration = .seconds(15)

    /// Provisio's base URL (e.g. `https://provisio.example.com`).
    public let baseURL: URL
    public let credential: ProvisioCredential
    public let transport: any ProvisioHTTPTransport
    /// The default timeout of each call.
    public let timeout: Duration

    public init(
        baseURL: URL, credential: ProvisioCredential, transport: any ProvisioHTTPTransport = URLSessionTransport(),
        timeout: Duration = ProvisioMobileClient.defaultTimeout
    ) {
        self.baseURL = baseURL
        self.credential = credential
        self.transport = transport
        self.timeout = timeout
    }

    /// `GET /v1/mobile/cards`: the cards the app may add now (with a provision token: its card, or none).
    public func cards(timeout: Duration? = nil) async throws -> [MobileCard] {
        struct List: Decodable { var data: [MobileCard] }
        let response = try await perform(try request("GET", path: ["v1", "mobile", "cards"]), timeout: timeout ?? self.timeout)
        guard let list = try? JSONDecoder().decode(List.self, from: response.body) else {
            throw Self.invalidResponse("The card list is not the documented shape.", response)
        }
        return list.data
    }

    /// `POST /v1/mobile/cards/{id}/provisioning/apple-pay`: the payload for `PKAddPaymentPassRequest`.
    ///
    /// - Parameter idempotencyKey: sent as `Idempotency-Key`; retrying with the same key replays
    ///   the first answer (the way to retry after a provision token was spent).
    public func applePayPayload(
        cardID: String, request payloadRequest: ApplePayPayloadRequest, idempotencyKey: String? = nil,
        timeout: Duration? = nil
    ) async throws -> ApplePayPayload {
        var urlRequest = try request(
            "POST", path: ["v1", "mobile", "cards", try Self.checkedID(cardID), "provisioning", "apple-pay"])
        do {
            urlRequest.httpBody = try payloadRequest.jsonBody()
        } catch {
            throw ProvisioClientError(code: ProvisioClientError.requestInvalidCode, message: "The request could not be encoded.")
        }
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let idempotencyKey { urlRequest.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key") }
        let response = try await perform(urlRequest, timeout: timeout ?? self.timeout)
        guard let payload = ApplePayPayload.decode(response.body) else {
            throw Self.invalidResponse("The Apple Pay payload is not the documented shape.", response)
        }
        return payload
    }

    // MARK: - Plumbing

    private func request(_ method: String, path: [String]) throws -> URLRequest {
        var url = baseURL
        for component in path { url.appendPathComponent(component) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(credential.token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    /// Sends `request`, racing it against `timeout`; maps every failure to a `ProvisioClientError`.
    private func perform(_ request: URLRequest, timeout: Duration) async throws -> ProvisioHTTPResponse {
        var timed = request
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        timed.timeoutInterval = max(seconds, 0.001)
        let request = timed
        let transport = self.transport
        let response: ProvisioHTTPResponse
        do {
            response = try await withThrowingTaskGroup(of: ProvisioHTTPResponse?.self) { group in
                group.addTask { try await transport.send(request) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let response = first else {
                    throw ProvisioClientError(
                        code: ProvisioClientError.timeoutCode, message: "Provisio did not answer within \(timeout).")
                }
                return response
            }
        } catch let error as ProvisioClientError {
            throw error
        } catch {
            if Task.isCancelled || error is CancellationError {
                throw ProvisioClientError(code: ProvisioClientError.cancelledCode, message: "The request was cancelled.")
            }
            throw ProvisioClientError(
                code: ProvisioClientError.transportFailedCode, message: "Provisio could not be reached (\(Self.describe(error)))."
            )
        }
        guard (200..<300).contains(response.status) else { throw Self.serverError(response) }
        return response
    }

    /// The server's error body, or — when it is not one — `client_response_invalid` with the status.
    static func serverError(_ response: ProvisioHTTPResponse) -> ProvisioClientError {
        guard let error = WireError.decode(from: response.body) else {
            return invalidResponse("Provisio answered HTTP \(response.status) without an error body.", response)
        }
        return ProvisioClientError(
            code: error.code, message: error.message, httpStatus: response.status,
            requestID: error.requestID ?? response.headers["x-request-id"])
    }

    private static func invalidResponse(_ message: String, _ response: ProvisioHTTPResponse) -> ProvisioClientError {
        ProvisioClientError(
            code: ProvisioClientError.responseInvalidCode, message: message, httpStatus: response.status,
            requestID: response.headers["x-request-id"])
    }

    /// Card ids are Provisio's (`card_…`): letters, digits, `_` and `-` only, so they are safe in a path.
    private static func checkedID(_ id: String) throws -> String {
        let allowed = id.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
                || byte == 0x2D
        }
        guard !id.isEmpty, id.utf8.count <= 128, allowed else {
            throw ProvisioClientError(
                code: ProvisioClientError.requestInvalidCode, message: "The card id is not a Provisio card id.")
        }
        return id
    }

    /// A transport error's kind only (URLs and bodies stay out of messages).
    private static func describe(_ error: any Error) -> String {
        if let urlError = error as? URLError { return "URLError \(urlError.code.rawValue)" }
        return String(describing: type(of: error))
    }
}
