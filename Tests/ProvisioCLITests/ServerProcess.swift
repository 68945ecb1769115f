import Foundation
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import ProvisioAPI
import ProvisioProcess

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `provisio serve` (or `provisio sandbox serve`) child process on an ephemeral port, with
/// its output in a file. Killed when released, so a failing test leaves no server behind.
final class ServerProcess {
    let child: BackgroundProcess
    private(set) var port = 0

    var logFile: String { child.logFile }
    var isRunning: Bool { child.isRunning }

    convenience init(arguments: [String], logFile: String) async throws {
        try await self.init(command: ["serve", "--host", "127.0.0.1", "--port", "0"] + arguments, logFile: logFile)
    }

    init(command: [String], logFile: String) async throws {
        child = try await BackgroundProcess.start(CLIRunner.executable.path, arguments: command, logFile: logFile)
    }

    /// Waits for the "listening on [http://]127.0.0.1:PORT" line.
    func waitUntilListening(timeout: TimeInterval = 60) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            let lines = log.split(separator: "\n")
            if let line = lines.first(where: {
                $0.range(of: #"listening on (http://)?127\.0\.0\.1:[1-9]\d*"#, options: .regularExpression) != nil
            }),
                let range = line.range(of: #"127\.0\.0\.1:[1-9]\d*"#, options: .regularExpression)
            {
                port = Int(line[range].split(separator: ":").last!)!
                return
            }
            guard child.isRunning else { throw ProcessFailure("server exited: \(log)") }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ProcessFailure("server did not start: \((try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "")")
    }

    /// SIGTERM, then the exit status (128 + the signal's number if one ended it).
    func stop() async -> Int32 {
        await child.stop().status
    }

    var endpoint: ServerEndpoint { ServerEndpoint(port: port) }

    /// Provisio's generated client against this server (see `ServerEndpoint.api`).
    func api(_ token: String? = nil) -> Client { endpoint.api(token) }

    /// `body` encoded as JSON (sorted keys), raw: for what the generated client cannot send.
    func request(
        _ method: String, _ path: String, token: String? = nil, body: some Encodable, headers: [String: String] = [:]
    ) async throws -> ServerEndpoint.Reply {
        try await endpoint.request(method, path, token: token, body: try ServerEndpoint.encode(body), headers: headers)
    }
}

/// Where a running server answers; `Sendable`, so parallel tasks can share it. The generated
/// client (`api`) for what it can send; raw requests (`request`) for idempotency replays
/// compared byte for byte, their answers read as the generated types (`Reply.decode`).
struct ServerEndpoint: Sendable {
    let port: Int

    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data

        /// The body as a generated type (closed objects, enums).
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(type, from: body)
        }

        /// The code of an error body read as the document's `Error` schema.
        var errorCode: Components.Schemas.ErrorCode? {
            (try? decode(Components.Schemas._Error.self))?.error.code
        }
    }

    /// Provisio's generated client against this server, sending `token` as its bearer credential.
    func api(_ token: String? = nil) -> Client {
        Client(
            serverURL: URL(string: "http://127.0.0.1:\(port)")!, transport: TestHTTPClient.transport,
            middlewares: token.map { [BearerToken(token: $0)] } ?? [])
    }

    /// A request body as raw requests send it: compact JSON with sorted keys.
    static func encode(_ body: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(body)
    }

    func request(_ method: String, _ path: String, token: String? = nil, body: Data? = nil, headers: [String: String] = [:])
        async throws -> Reply
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields { fields[String(describing: key).lowercased()] = String(describing: value) }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }
}

struct ProcessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
