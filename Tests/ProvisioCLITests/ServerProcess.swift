import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `provisio serve` (or `provisio sandbox serve`) child process on an ephemeral port, with
/// its output in a file.
final class ServerProcess {
    let process = Process()
    let logFile: String
    private(set) var port = 0

    convenience init(arguments: [String], logFile: String) throws {
        try self.init(command: ["serve", "--host", "127.0.0.1", "--port", "0"] + arguments, logFile: logFile)
    }

    init(command: [String], logFile: String) throws {
        self.logFile = logFile
        _ = FileManager.default.createFile(atPath: logFile, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        process.executableURL = CLIRunner.executable
        process.arguments = command
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
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
            guard process.isRunning else { throw ProcessFailure("server exited: \(log)") }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ProcessFailure("server did not start: \((try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "")")
    }

    /// SIGTERM, then the exit status.
    func stop() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    var endpoint: ServerEndpoint { ServerEndpoint(port: port) }

    func request(_ method: String, _ path: String, token: String? = nil, json: Any? = nil, headers: [String: String] = [:])
        async throws -> ServerEndpoint.Reply
    {
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
        return try await endpoint.request(method, path, token: token, body: body, headers: headers)
    }
}

/// Where a running server answers; `Sendable`, so parallel tasks can share it.
struct ServerEndpoint: Sendable {
    let port: Int

    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
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
