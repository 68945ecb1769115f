import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import ProvisioCore
import ProvisioMobileAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A typed async client of Provisio's mobile API (`/v1/mobile/`), for the issuer's app, over
/// the client generated from Provisio's OpenAPI document (`ProvisioMobileAPI`).
///
/// - Credentials: a mobile session or a provision token, sent as `Authorization: Bearer`.
/// - Every call has a hard timeout for the whole exchange (default 15 s, so an in-app add fits
///   in Apple's 20 s); on expiry the request is cancelled and `client_timeout` thrown.
/// - Errors are `ProvisioClientError`s carrying a typed code: the server's, or the client's own.
public struct ProvisioMobileClient: Sendable {
    /// Leaves 5 of Apple's 20 seconds for PassKit itself. In seconds (`TimeInterval`, not
    /// `Duration`, which needs iOS 16).
    public static let defaultTimeout: TimeInterval = 15

    /// Provisio's base URL (e.g. `https://provisio.example.com`).
    public let baseURL: URL
    public let credential: ProvisioCredential
    /// The default timeout of each call, in seconds.
    public let timeout: TimeInterval
    /// The generated client (internal: the token calls live in `ProvisioMobileClient+Tokens.swift`).
    let client: Client

    /// - Parameter transport: how requests travel; by default URLSession over
    ///   `ProvisioMobileClient.noRedirectSession`. Another transport must not follow redirects
    ///   either: every request carries a bearer credential.
    public init(
        baseURL: URL, credential: ProvisioCredential, transport: (any ClientTransport)? = nil,
        timeout: TimeInterval = ProvisioMobileClient.defaultTimeout
    ) {
        self.baseURL = baseURL
        self.credential = credential
        self.timeout = timeout
        self.client = Client(
            serverURL: baseURL,
            transport: transport ?? URLSessionTransport(configuration: .init(session: Self.noRedirectSession)),
            middlewares: [BearerCredentialMiddleware(token: credential.token), ErrorAnswerMiddleware()])
    }

    /// A session of its own that never follows a redirect, so the Authorization header never
    /// reaches another URL: a redirect answer comes back as it is, and the client refuses it.
    public static let noRedirectSession = URLSession(
        configuration: .ephemeral, delegate: RedirectRefusal(), delegateQueue: nil)

    /// `GET /v1/mobile/cards`: the cards the app may add now (with a provision token: its card, or none).
    public func cards(timeout: TimeInterval? = nil) async throws -> [WalletCard] {
        let client = self.client
        return try await perform(timeout: timeout ?? self.timeout) {
            let list = try await client.listMobileCards().ok.body.json
            return list.data.map(WalletCard.init)
        }
    }

    /// `POST /v1/mobile/cards/{id}/provisioning/apple-pay`: the payload for `PKAddPaymentPassRequest`.
    ///
    /// - Parameter idempotencyKey: sent as `Idempotency-Key`; retrying with the same key replays
    ///   the first answer (the way to retry after a provision token was spent).
    public func applePayPayload(
        cardID: String, request payloadRequest: ApplePayPayloadRequest, idempotencyKey: String? = nil,
        timeout: TimeInterval? = nil
    ) async throws -> ApplePayPayload {
        let cardID = try Self.checkedID(cardID)
        let client = self.client
        let answer = try await perform(timeout: timeout ?? self.timeout) {
            try await client.provisionApplePayFromMobile(
                path: .init(id: cardID), headers: .init(idempotencyKey: idempotencyKey),
                body: .json(payloadRequest.wire)
            ).ok.body.json
        }
        guard let payload = ApplePayPayload(answer) else {
            throw ProvisioClientError(
                .clientResponseInvalid, "The Apple Pay payload is not the documented shape.", httpStatus: 200)
        }
        return payload
    }

    // MARK: - Plumbing

    /// Runs `call`, racing it against `timeout`; maps every failure to a `ProvisioClientError`.
    func perform<T: Sendable>(timeout: TimeInterval, _ call: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await call() }
                group.addTask {
                    try await Seconds.sleep(timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let answer = first else {
                    throw ProvisioClientError(.clientTimeout, "Provisio did not answer within \(Seconds.text(timeout)).")
                }
                return answer
            }
        } catch {
            throw Self.clientError(for: error)
        }
    }

    /// Every failure as the one error type apps see. Messages name an error's kind only, never a
    /// URL or a body.
    static func clientError(for error: any Error) -> ProvisioClientError {
        switch error {
        case let error as ProvisioClientError:
            return error
        case let error as ClientError:
            let status = error.response.map { Int($0.status.code) }
            let requestID = error.response?.headerFields[HTTPField.Name("X-Request-Id")!]
            switch error.underlyingError {
            case let underlying as ProvisioClientError:
                return underlying
            case is CancellationError:
                return cancelled()
            case let underlying as URLError:
                if underlying.code == .cancelled, Task.isCancelled { return cancelled() }
                return ProvisioClientError(
                    .clientTransportFailed, "Provisio could not be reached (URLError \(underlying.code.rawValue)).")
            default:
                if status == nil {
                    if Task.isCancelled { return cancelled() }
                    return ProvisioClientError(
                        .clientTransportFailed, "Provisio could not be reached (\(type(of: error.underlyingError))).")
                }
                return ProvisioClientError(
                    .clientResponseInvalid, "The answer is not the documented shape.", httpStatus: status,
                    requestID: requestID)
            }
        case is CancellationError:
            return cancelled()
        default:
            // The generated output's accessors (`.ok`) throw when a documented but unexpected
            // status arrives; ErrorAnswerMiddleware has already turned every non-2xx into an error.
            return ProvisioClientError(.clientResponseInvalid, "The answer is not the documented shape.")
        }
    }

    private static func cancelled() -> ProvisioClientError {
        ProvisioClientError(.clientCancelled, "The request was cancelled.")
    }

    /// Card and token ids are Provisio's (`card_…`, `tok_…`): letters, digits, `_` and `-` only,
    /// so they are safe in a path.
    static func checkedID(_ id: String, of kind: String = "card") throws -> String {
        let allowed = id.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
                || byte == 0x2D
        }
        guard !id.isEmpty, id.utf8.count <= 128, allowed else {
            throw ProvisioClientError(.clientRequestInvalid, "The \(kind) id is not a Provisio \(kind) id.")
        }
        return id
    }
}
