import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// An HTTP/1.1 load generator over keep-alive connections, until the deadline.
///
/// Closed loop (no `rate`): each connection sends the next request as soon as the previous
/// response ends — the most the server can do; latency is then mostly queueing. Paced (`rate`
/// requests/s in all): each connection sends on a fixed schedule, and a request's latency counts
/// from its scheduled time, so a server that falls behind is charged for the wait (no
/// coordinated omission) — the latency a client sees at that load.
///
/// Plain HTTP, or TLS with a client certificate (`tls`); one body for every request, or a
/// fresh one per request from a pool built beforehand (`bodies`).
struct HTTPLoadGenerator {
    struct Result: Sendable {
        var latenciesNanoseconds: [UInt64]
        var failures: Int
        var elapsed: Duration
        /// The body pool ran dry before the deadline: the run ended then (`elapsed` says when).
        var bodiesRanOut = false
    }

    let host: String
    /// Connections are spread over these ports in turn (one per server process).
    let ports: [Int]
    var path: String
    var headers: [(String, String)]
    /// The status a request must get to count; anything else is a failure.
    var expectedStatus: HTTPResponseStatus = .ok
    /// A field every answer must carry, as well as the status (e.g. `"decision": "APPROVED"`).
    var expectedField: ResponseFieldCheck?
    let body: Data
    /// When set, each request sends the pool's next body instead of `body`.
    var bodies: RequestBodyPool?
    /// Mutual TLS; nil is plain HTTP.
    var tls: ClientTLSIdentity?
    let connections: Int
    var duration: Duration
    /// Requests per second over all connections; nil sends as fast as the server answers.
    var rate: Double?

    func run() async throws -> Result {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let result = try await run(on: group)
            try await group.shutdownGracefully()
            return result
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private func run(on group: MultiThreadedEventLoopGroup) async throws -> Result {
        let payload = ByteBuffer(bytes: body)
        let expectation = KeepAliveClientHandler.Expectation(status: expectedStatus, field: expectedField)
        let (bodies, tls) = (self.bodies, self.tls)
        let start = ContinuousClock.now
        let deadline = NIODeadline.now() + .nanoseconds(Int64(duration.components.seconds) * 1_000_000_000)

        // Paced: connection k, once connected, sends at k·(interval/connections) + n·interval (its
        // schedule starts when it is connected, so connecting never counts as latency).
        let interval = rate.map { TimeAmount.nanoseconds(Int64(Double(connections) / $0 * 1e9)) }
        let results = try await withThrowingTaskGroup(of: ([UInt64], Int).self) { tasks in
            for index in 0..<connections {
                let port = ports[index % ports.count]
                let requestHead = head(port: port)
                let pacing = interval.map {
                    KeepAliveClientHandler.Pacing(
                        offset: .nanoseconds($0.nanoseconds * Int64(index) / Int64(connections)), interval: $0)
                }
                tasks.addTask {
                    let promise = group.next().makePromise(of: ([UInt64], Int).self)
                    let channel = try await ClientBootstrap(group: group)
                        .channelInitializer { channel in
                            channel.eventLoop.makeCompletedFuture {
                                if let tls { try channel.pipeline.syncOperations.addHandler(try tls.handler()) }
                                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                                try channel.pipeline.syncOperations.addHandler(
                                    KeepAliveClientHandler(
                                        head: requestHead, body: payload, bodies: bodies, expectation: expectation,
                                        deadline: deadline, pacing: pacing, startsAfterHandshake: tls != nil, done: promise))
                            }
                        }
                        .connect(host: host, port: port).get()
                    let outcome = try await promise.futureResult.get()
                    try? await channel.close()
                    return outcome
                }
            }
            return try await tasks.reduce(into: [([UInt64], Int)]()) { $0.append($1) }
        }
        return Result(
            latenciesNanoseconds: results.flatMap(\.0), failures: results.reduce(0) { $0 + $1.1 },
            elapsed: ContinuousClock.now - start, bodiesRanOut: bodies?.ranOut ?? false)
    }

    private func head(port: Int) -> HTTPRequestHead {
        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: path)
        head.headers.add(name: "Host", value: "\(host):\(port)")
        head.headers.add(name: "Content-Type", value: "application/json")
        head.headers.add(name: "Content-Length", value: String(body.count))
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        return head
    }
}
