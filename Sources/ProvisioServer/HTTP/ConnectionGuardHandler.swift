import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes
import ProvisioCore
import ProvisioHTTP

/// Sits between the HTTP codec and Hummingbird on every connection:
///
/// - a response that says `Connection: close` (413, 408: the rest of the body is unread) ends
///   the connection once it is written: the server stops sending, throws away what the client
///   still sends for at most `lingerTime` and `lingerBytes` (so the client, still writing its
///   body, reads the answer instead of a reset), then closes;
/// - the bare `400` Hummingbird writes when the HTTP parser fails (oversized headers, a NUL in
///   a header) becomes the wire error shape with a request id, like every other error.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    static let lingerTime: TimeAmount = .seconds(2)
    static let lingerBytes = 1 << 20

    /// Whether clients reach this server over TLS (its own or a declared proxy's): the parser's
    /// refusal then carries HSTS like every other answer (`StrictTransportSecurityResponder`
    /// never sees it).
    let strictTransportSecurity: Bool

    init(strictTransportSecurity: Bool = false) {
        self.strictTransportSecurity = strictTransportSecurity
    }

    private var closeAfterEnd = false
    private var lingering = false
    private var discarded = 0
    private var pendingParserErrorBody: ByteBuffer?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard lingering else {
            context.fireChannelRead(data)
            return
        }
        if case .body(let buffer) = unwrapInboundIn(data) { discarded += buffer.readableBytes }
        if discarded > Self.lingerBytes { context.close(promise: nil) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Hummingbird no longer reads (it waits for the close), so nothing upstream asks for
        // more: keep the socket drained ourselves, or closing with unread bytes would reset the
        // connection and the client could lose the answer.
        if lingering {
            context.read()
            return
        }
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // While lingering, a parse error in what the client still sends ends the connection.
        if lingering {
            context.close(promise: nil)
            return
        }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if head.headerFields[.connection]?.lowercased() == "close" { closeAfterEnd = true }
            if Self.isParserErrorResponse(head) {
                let requestID = RequestID.generate()
                let error = ProvisioError(.malformedRequest, "The request's line or headers are malformed or too large.")
                let body = WireDialect.errorBody(for: error, requestID: requestID)
                head.headerFields[.contentLength] = "\(body.count)"
                head.headerFields[.contentType] = "application/json"
                head.headerFields[.requestID] = requestID
                if strictTransportSecurity {
                    head.headerFields[.strictTransportSecurity] = StrictTransportSecurity.value
                }
                pendingParserErrorBody = context.channel.allocator.buffer(bytes: body)
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body(let buffer):
            context.write(wrapOutboundOut(.body(buffer)), promise: promise)
        case .end(let trailers):
            if let body = pendingParserErrorBody {
                pendingParserErrorBody = nil
                context.write(wrapOutboundOut(.body(body)), promise: nil)
            }
            guard closeAfterEnd else {
                context.write(wrapOutboundOut(.end(trailers)), promise: promise)
                return
            }
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(wrapOutboundOut(.end(trailers)), promise: written)
            lingering = true
            context.read()
            // The promise is this channel's loop's, so its callbacks run there: isolated, the
            // context (not Sendable) may be used in them.
            written.futureResult.assumeIsolated().whenComplete { _ in
                context.close(mode: .output, promise: nil)
                context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingerTime) { context.close(promise: nil) }
            }
        }
    }

    /// Hummingbird's answer to an `HTTPParserError`: 400, `Connection: close`, empty, and (unlike
    /// every response of ours) without a request id.
    static func isParserErrorResponse(_ head: HTTPResponse) -> Bool {
        head.status == .badRequest && head.headerFields[.contentLength] == "0"
            && head.headerFields[.connection]?.lowercased() == "close" && head.headerFields[.requestID] == nil
    }
}
