import NIOCore
import NIOHTTP1
import NIOTLS

/// One keep-alive connection's request loop for `HTTPLoadGenerator` (runs on its event loop
/// only).
final class KeepAliveClientHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    /// A fixed schedule: the n-th request of this connection is due `offset + n·interval` after
    /// it connected.
    struct Pacing: Sendable {
        let offset: TimeAmount
        let interval: TimeAmount
    }

    /// What a request must get back to count as answered.
    struct Expectation: Sendable {
        var status: HTTPResponseStatus
        /// Checked on the whole body when set; the body is only collected then.
        var field: ResponseFieldCheck?
    }

    var head: HTTPRequestHead
    let body: ByteBuffer
    /// Each request's own body when set (`body` unused): the connection ends when it runs dry.
    let bodies: RequestBodyPool?
    let expectation: Expectation
    let deadline: NIODeadline
    let pacing: Pacing?
    /// Over TLS the connection starts once the handshake is done, so that it never counts as
    /// a request's latency.
    let startsAfterHandshake: Bool
    let done: EventLoopPromise<([UInt64], Int)>
    var latencies: [UInt64] = []
    var failures = 0
    var sent: Int64 = 0
    /// When this connection's schedule starts (paced): when it connected.
    var connectedAt = NIODeadline.now()
    /// When the request in flight was due (paced) or written (closed loop).
    var sentAt = NIODeadline.now()
    var statusOK = true
    var answer: ByteBuffer?

    init(
        head: HTTPRequestHead, body: ByteBuffer, bodies: RequestBodyPool?, expectation: Expectation, deadline: NIODeadline,
        pacing: Pacing?, startsAfterHandshake: Bool, done: EventLoopPromise<([UInt64], Int)>
    ) {
        self.head = head
        self.body = body
        self.bodies = bodies
        self.expectation = expectation
        self.deadline = deadline
        self.pacing = pacing
        self.startsAfterHandshake = startsAfterHandshake
        self.done = done
        latencies.reserveCapacity(100_000)
    }

    func channelActive(context: ChannelHandlerContext) {
        guard !startsAfterHandshake else { return }
        connectedAt = .now()
        sendNext(context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if startsAfterHandshake, case .handshakeCompleted = event as? TLSUserEvent {
            connectedAt = .now()
            sendNext(context: context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let response):
            statusOK = response.status == expectation.status
            answer = nil
        case .body(var part):
            guard expectation.field != nil else { break }
            if answer == nil {
                answer = part
            } else {
                answer!.writeBuffer(&part)
            }
        case .end:
            let now = NIODeadline.now()
            let fieldOK = expectation.field.map { check in answer.map(check.matches) ?? false } ?? true
            if statusOK && fieldOK {
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
        var payload = body
        if let bodies {
            guard let next = bodies.take() else { return done.succeed((latencies, failures)) }
            payload = next
            head.headers.replaceOrAdd(name: "Content-Length", value: String(next.readableBytes))
        }
        sent += 1
        sentAt = due
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(payload))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
