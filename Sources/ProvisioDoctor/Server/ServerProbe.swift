import AsyncHTTPClient
import Foundation
import NIOCore
import ProvisioCore

/// `--server URL`: asks a running Provisio whether it answers as the app will need it to —
/// `GET /health` is `200 {"status": "ok"}`, and `GET /v1/mobile/cards` without credentials is
/// Provisio's `401 {"error": {"code": …}}`. https is required unless the host is loopback; no
/// redirect is followed (the app's clients follow none); each request has a time limit and at
/// most `maximumBodyBytes` of an answer is read.
public struct ServerProbe: Sendable {
    /// How long each request may take, connecting included.
    public var timeoutSeconds: Int64
    /// The most of an answer that is read.
    public var maximumBodyBytes: Int

    public init(timeoutSeconds: Int64 = 10, maximumBodyBytes: Int = 64 * 1024) {
        self.timeoutSeconds = timeoutSeconds
        self.maximumBodyBytes = maximumBodyBytes
    }

    private var timeout: TimeAmount { .seconds(timeoutSeconds) }

    /// The base URL, or `doctor.invalid_argument` saying what is wrong with it.
    public static func validate(_ text: String) throws(DoctorError) -> URL {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil, let url = components.url
        else {
            throw DoctorError(.invalidArgument, "--server must be an absolute URL such as https://provisio.example.com.")
        }
        guard scheme == "https" || (scheme == "http" && ServerURLCheck.isLoopback(host)) else {
            throw DoctorError(.invalidArgument, "--server must use https (http is allowed only for a loopback host).")
        }
        return url
    }

    public func probe(_ base: URL) async -> [DoctorFinding] {
        let configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: timeout, read: timeout))
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let findings = await probe(base, client: client)
        try? await client.shutdown()
        return findings
    }

    private func probe(_ base: URL, client: HTTPClient) async -> [DoctorFinding] {
        let root = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
        // /health: liveness, and proof that this is Provisio.
        let health: Answer
        switch await get(root + "/health", client: client) {
        case .success(let answer): health = answer
        case .failure(let failure): return [finding(failure, url: root + "/health")]
        }
        if let redirect = redirectFinding(health, url: root + "/health") { return [redirect] }
        let status = (try? JSONSerialization.jsonObject(with: health.body) as? [String: Any])?["status"] as? String
        guard health.status == 200, status == "ok" else {
            return [
                DoctorFinding(
                    .serverNotProvisio, file: nil, key: Self.key,
                    message:
                        "\(root)/health answered \(health.status)\(status.map { " (status \($0))" } ?? ""), not Provisio's 200 {\"status\": \"ok\"}.",
                    fix: "Point ServerURL and --server at Provisio's base URL (the one serving /health and /v1/mobile/…).")
            ]
        }
        // The mobile API without credentials: Provisio's 401 with an error code, not a proxy's page.
        let mobile: Answer
        switch await get(root + "/v1/mobile/cards", client: client) {
        case .success(let answer): mobile = answer
        case .failure(let failure): return [finding(failure, url: root + "/v1/mobile/cards")]
        }
        if let redirect = redirectFinding(mobile, url: root + "/v1/mobile/cards") { return [redirect] }
        let error = (try? JSONSerialization.jsonObject(with: mobile.body) as? [String: Any])?["error"] as? [String: Any]
        guard mobile.status == 401, error?["code"] is String else {
            return [
                DoctorFinding(
                    .serverNotProvisio, file: nil, key: Self.key,
                    message:
                        "\(root)/v1/mobile/cards without credentials answered \(mobile.status), not Provisio's 401 with an error code: the mobile API is not served there.",
                    fix: "Expose Provisio's /v1/mobile/ routes at this URL (a proxy in front may be rewriting or blocking them).")
            ]
        }
        return []
    }

    static let key = "--server"

    struct Answer {
        var status: Int
        var location: String?
        var body: Data
    }

    enum Failure: Error {
        case unreachable(String)
        case tooLarge
    }

    private func finding(_ failure: Failure, url: String) -> DoctorFinding {
        switch failure {
        case .unreachable(let reason):
            DoctorFinding(
                .serverUnreachable, file: nil, key: Self.key, message: "\(url) did not answer: \(reason).",
                fix:
                    "Check the URL, that Provisio is running and reachable from here, and that its TLS certificate is valid for the host."
            )
        case .tooLarge:
            DoctorFinding(
                .serverNotProvisio, file: nil, key: Self.key,
                message: "\(url) answered with more than \(maximumBodyBytes) bytes; Provisio's answers there are a few bytes.",
                fix: "Point ServerURL and --server at Provisio's base URL.")
        }
    }

    private func redirectFinding(_ answer: Answer, url: String) -> DoctorFinding? {
        guard (300..<400).contains(answer.status) else { return nil }
        return DoctorFinding(
            .serverRedirects, file: nil, key: Self.key,
            message:
                "\(url) answered \(answer.status), a redirect\(answer.location.map { " to \($0)" } ?? ""); Provisio's clients follow none.",
            fix: "Use the final URL (scheme, host and path) as ServerURL and --server.")
    }

    private func get(_ url: String, client: HTTPClient) async -> Result<Answer, Failure> {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/json")
        do {
            let response = try await client.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: maximumBodyBytes)
            return .success(
                Answer(
                    status: Int(response.status.code), location: response.headers.first(name: "Location"),
                    body: Data(body.readableBytesView)))
        } catch let error as HTTPClientError where [.deadlineExceeded, .readTimeout, .connectTimeout].contains(error) {
            return .failure(.unreachable("no answer within \(timeoutSeconds) s"))
        } catch is NIOTooManyBytesError {
            return .failure(.tooLarge)
        } catch {
            return .failure(.unreachable(String(describing: error)))
        }
    }
}
