import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP/1.1 load generator over keep-alive connections, until the deadline.
///
/// Closed loop (no `rate`): each connection sends the next request as soon as the previous
/// response ends — the most the server can do; latency is then mostly queueing. Paced (`rate`
/// requests/s in all): each connection sends on a fixed schedule, and a request's latency counts
/// from its scheduled time, so a server that falls behind is charged for the wait (no
/// coordinated omission) — the latency a client sees at that load.
struct HTTPLoadGenerator {
    struct Result: Sendable {
        var latenciesNanoseconds: [UInt64]
        var failures: Int
        var elapsed: Duration
    }

    let host: String
    /// Connections are spread over these ports in turn (one per server process).
    let ports: [Int]
    var path: String
    var headers: [(String, String)]
    /// The status a request must get to count; anything else is a failure.
    var expectedStatus: HTTPResponseStatus = .ok
    let body: Data
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
        let payload = body
        let start = ContinuousClock.now
        let deadline = NIODeadline.now() + .nanoseconds(Int64(duration.components.seconds) * 1_000_000_000)

        // Paced: connection k, once connected, sends at k·(interval/connections) + n·interval (its
        // schedule starts when it is connected, so connecting never counts as latency).
        let interval = rate.map { TimeAmount.nanoseconds(Int64(Double(connections) / $0 * 1e9)) }
        let results = try await withThrowingTaskGroup(of: ([UInt64], Int).self) { tasks in
            for index in 0..<connections {
                let port = ports[index % ports.count]
                let requestHead = head(port: port)
                let expectedStatus = self.expectedStatus
                let pacing = interval.map {
                    KeepAliveClientHandler.Pacing(
                        offset: .nanoseconds($0.nanoseconds * Int64(index) / Int64(connections)), interval: $0)
                }
                tasks.addTask {
                    let promise = group.next().makePromise(of: ([UInt64], Int).self)
                    let channel = try await ClientBootstrap(group: group)
                        .channelInitializer { channel in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                                try channel.pipeline.syncOperations.addHandler(
                                    KeepAliveClientHandler(
                                        head: requestHead, body: payload, expectedStatus: expectedStatus, deadline: deadline,
                                        pacing: pacing, done: promise))
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
            elapsed: ContinuousClock.now - start)
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

/// One keep-alive connection's request loop (runs on its event loop only).
private final class KeepAliveClientHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    /// A fixed schedule: the n-th request of this connection is due `offset + n·interval` after
    /// it connected.
    struct Pacing: Sendable {
        let offset: TimeAmount
        let interval: TimeAmount
    }

    let head: HTTPRequestHead
    let body: Data
    let expectedStatus: HTTPResponseStatus
    let deadline: NIODeadline
    let pacing: Pacing?
    let done: EventLoopPromise<([UInt64], Int)>
    var latencies: [UInt64] = []
    var failures = 0
    var sent: Int64 = 0
    /// When this connection's schedule starts (paced): when it connected.
    var connectedAt = NIODeadline.now()
    /// When the request in flight was due (paced) or written (closed loop).
    var sentAt = NIODeadline.now()
    var statusOK = true

    init(
        head: HTTPRequestHead, body: Data, expectedStatus: HTTPResponseStatus, deadline: NIODeadline, pacing: Pacing?,
        done: EventLoopPromise<([UInt64], Int)>
    ) {
        self.head = head
        self.body = body
        self.expectedStatus = expectedStatus
        self.deadline = deadline
        self.pacing = pacing
        self.done = done
        latencies.reserveCapacity(100_000)
    }

    func channelActive(context: ChannelHandlerContext) {
        connectedAt = .now()
        sendNext(context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let response):
            statusOK = response.status == expectedStatus
        case .body:
            break
        case .end:
            let now = NIODeadline.now()
            if statusOK {
                latencies.append(UInt64((now - sentAt).nanoseconds))
            } else {
                failures += 1
            }
            if now < deadline {
                sendNext(context: context)
            } else {
                done.succeed((latencies, failures))
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        done.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        done.succeed((latencies, failures))
    }

    /// The next request: at once in a closed loop; paced, at its slot (at once if the slot has
    /// passed while the previous answer was awaited).
    private func sendNext(context: ChannelHandlerContext) {
        guard let pacing else { return send(context: context, due: .now()) }
        let slot = connectedAt + pacing.offset + .nanoseconds(pacing.interval.nanoseconds * sent)
        guard slot < deadline else { return done.succeed((latencies, failures)) }
        if slot <= .now() {
            send(context: context, due: slot)
        } else {
            context.eventLoop.assumeIsolated().scheduleTask(deadline: slot) { self.send(context: context, due: slot) }
        }
    }

    private func send(context: ChannelHandlerContext, due: NIODeadline) {
        sent += 1
        sentAt = due
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
