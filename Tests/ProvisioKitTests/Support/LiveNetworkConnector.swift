#if os(Linux)
    import Foundation
    import Logging
    import ProvisioCore
    import ProvisioHTTP
    import ProvisioSandbox
    import ProvisioSandboxServer

    /// The sandbox's own HTTP service (what `provisio sandbox serve` runs) over the test's sandbox
    /// network, on loopback: Provisio's token changes reach the network through its real connector
    /// API (`network-connector-openapi.yaml`). What reached the network is read from the lines the
    /// service logs for each issuer call, so a test can see what did (and what did not).
    struct LiveNetworkConnector: Sendable {
        /// One call that reached the network: which (`lifecycle`, `activation`), the token and the
        /// body's `action` or `method`.
        struct Call: Sendable, Hashable {
            var operation: String
            var networkTokenRef: String
            var word: String
        }

        let running: RunningApplication
        let apiKey: String
        private let calls: Locked<[Call]>

        var url: String { "http://127.0.0.1:\(running.port)" }
        var received: [Call] { calls.value }

        static func serve(network: SandboxNetworkTokenService) async throws -> LiveNetworkConnector {
            let apiKey = "sbx_key_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            let calls = Locked<[Call]>([])
            var logger = Logger(label: "sandbox-connector") { _ in CallRecorder(calls: calls) }
            logger.logLevel = .info
            let service = logger
            let running = try await RunningApplication.start(logger: logger) { onListening in
                SandboxHTTPService.make(
                    world: SandboxHTTPWorld(network: network), host: "127.0.0.1", port: 0, apiKey: apiKey, logger: service,
                    onListening: onListening)
            }
            return LiveNetworkConnector(running: running, apiKey: apiKey, calls: calls)
        }

        /// Stops the service gracefully, in the background (tests call this from `defer`).
        func stop() {
            let running = self.running
            Task { await running.stop() }
        }
    }

    /// Keeps the issuer calls the sandbox's connector logs (`issuer lifecycle action`,
    /// `issuer activation`), and nothing else.
    struct CallRecorder: LogHandler {
        let calls: Locked<[LiveNetworkConnector.Call]>
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(
            level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
            function: String, line: UInt
        ) {
            let fields = metadata ?? [:]
            let operation: String
            let word: String?
            switch message.description {
            case "issuer lifecycle action": (operation, word) = ("lifecycle", fields["action"]?.description)
            case "issuer activation": (operation, word) = ("activation", fields["method"]?.description)
            default: return
            }
            guard let word, let ref = fields["ref"]?.description else { return }
            calls.withLock { $0.append(LiveNetworkConnector.Call(operation: operation, networkTokenRef: ref, word: word)) }
        }
    }
#endif
