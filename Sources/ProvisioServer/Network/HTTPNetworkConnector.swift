import Foundation
import ProvisioCore

/// `NetworkConnector` over HTTP, the sandbox network's connector API
/// (`POST {base}/network/v1/tokens/{ref}/lifecycle` and `…/activation`) with a bearer key,
/// through the guarded outbound client (checked address, no redirects: the bearer key never
/// follows a redirect to another host). The network's own words never reach Provisio's
/// caller: only its status and, when it sends one, its snake_case error code.
public struct HTTPNetworkConnector: NetworkConnector {
    public let baseURL: String
    private let apiKey: String
    private let client: OutboundHTTPClient
    private let timeout: Duration

    static let maximumAnswerBytes = 64 * 1024

    public init(baseURL: String, apiKey: String, client: OutboundHTTPClient, timeout: Duration = .seconds(10)) {
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

        let headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"), ("Accept", "application/json"), ("Authorization", "Bearer \(apiKey)"),
            ("User-Agent", "Provisio-Network-Connector/1"),
        ]
        let status: Int
        let body: Data
        do {
            let answer = try await client.post(
                baseURL + path, headers: headers, body: try JSONEncoder().encode(fields), timeout: timeout,
                maximumAnswerBytes: Self.maximumAnswerBytes)
            status = answer.status
            body = answer.body
        } catch let error as ProvisioError where error.code == .outboundAddressRefused || error.code == .outboundHTTPSRequired {
            throw ProvisioError(.networkUnavailable, "The card network's address is not allowed: \(error.message)")
        } catch {
            throw ProvisioError(.networkUnavailable, "The card network could not be reached.")
        }
        switch status {
        case 200..<300:
            guard (try? StrictJSONParser.parse(body)) != nil,
                let answer = try? JSONDecoder().decode(NetworkCommandAnswer.self, from: body),
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

    /// The network's error code when it sent a well-formed one (snake_case, at most 64
    /// characters), and its status; never its message or anything else it wrote.
    static func describe(_ body: Data, status: Int) -> String {
        guard let error = WireError.decode(from: body), error.code.utf8.count <= 64,
            error.code.utf8.allSatisfy({ (0x61...0x7A).contains($0) || $0 == 0x5F || (0x30...0x39).contains($0) })
        else { return "HTTP \(status)." }
        return "\(error.code) (HTTP \(status))."
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
