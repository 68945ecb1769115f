import AsyncHTTPClient
import Foundation
import NIOCore
import ProvisioCore

/// `NetworkConnector` over HTTP, the sandbox network's connector API
/// (`POST {base}/network/v1/tokens/{ref}/lifecycle` and `…/activation`) with a bearer key.
public struct HTTPNetworkConnector: NetworkConnector {
    public let baseURL: String
    private let apiKey: String
    private let client: HTTPClient
    private let timeout: Duration

    static let maximumAnswerBytes = 64 * 1024

    public init(baseURL: String, apiKey: String, client: HTTPClient = .shared, timeout: Duration = .seconds(10)) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.apiKey = apiKey
        self.client = client
        self.timeout = timeout
    }

    public func send(_ command: NetworkCommand, networkTokenRef: String, reasonCode: String?) async throws
        -> NetworkCommandAnswer
    {
        let ref = networkTokenRef.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? networkTokenRef
        var fields: [String: String] = [:]
        let path: String
        switch command {
        case .suspend, .resume, .delete:
            path = "/network/v1/tokens/\(ref)/lifecycle"
            fields["action"] = command.action
        case .activate(let method):
            path = "/network/v1/tokens/\(ref)/activation"
            fields["method"] = method
        }
        if let reasonCode { fields["reason_code"] = reasonCode }

        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
        request.headers.add(name: "User-Agent", value: "Provisio-Network-Connector/1")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(fields)))

        let status: Int
        let body: Data
        do {
            let response = try await client.execute(request, timeout: .milliseconds(timeout.milliseconds))
            status = Int(response.status.code)
            body = Data(buffer: try await response.body.collect(upTo: Self.maximumAnswerBytes))
        } catch {
            throw ProvisioError(.networkUnavailable, "The card network at \(baseURL) could not be reached (\(type(of: error))).")
        }
        switch status {
        case 200..<300:
            guard let answer = try? JSONDecoder().decode(NetworkCommandAnswer.self, from: body),
                answer.networkTokenRef == networkTokenRef
            else {
                throw ProvisioError(.networkAnswerMalformed, "The card network's answer is not the token it was asked about.")
            }
            return answer
        case 401, 403:
            throw ProvisioError(.networkCredentialsRejected, "The card network refused Provisio's API key (HTTP \(status)).")
        case 500...:
            throw ProvisioError(.networkUnavailable, "The card network failed with HTTP \(status).")
        default:
            throw ProvisioError(.networkRefused, "The card network refused: \(Self.describe(body, status: status))")
        }
    }

    /// The network's `{"error": {"code", "message"}}`, or its status when it sent none.
    static func describe(_ body: Data, status: Int) -> String {
        guard let error = WireError.decode(from: body) else { return "HTTP \(status)." }
        return "\(error.code): \(error.message)"
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

extension NetworkCommand {
    var action: String {
        switch self {
        case .suspend: "suspend"
        case .resume: "resume"
        case .delete: "delete"
        case .activate: "activate"
        }
    }
}

extension Duration {
    /// Whole milliseconds (sub-millisecond parts dropped), for APIs that take an integer.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
