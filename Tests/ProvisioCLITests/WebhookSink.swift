import Foundation
import ProvisioCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal HTTP/1.1 webhook receiver on 127.0.0.1: it records every complete request it is
/// sent (its `webhook-*` headers and body) and answers `204 No Content`, closing the
/// connection. A request cut short (its sender was killed) is not recorded.
///
/// All socket I/O blocks, so it runs on a thread of its own (accept) and on dispatch threads
/// (one per connection), never on Swift concurrency's threads.
final class WebhookSink: Sendable {
    struct Received: Sendable {
        var id: String
        var timestamp: String
        var signature: String
        var body: Data
    }

    let port: Int
    private let listener: Int32
    private let state = Locked<(received: [Received], stopped: Bool)>(([], false))

    var url: String { "http://127.0.0.1:\(port)/hooks" }

    init() throws {
        #if canImport(Glibc) || canImport(Musl)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw ProcessFailure("webhook sink: socket() failed (errno \(errno))") }
        var reuse: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 256) == 0 else {
            close(descriptor)
            throw ProcessFailure("webhook sink: bind/listen failed (errno \(errno))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.listener = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "webhook-sink-accept"
        thread.start()
    }

    /// Every complete request received so far, in arrival order.
    var deliveries: [Received] {
        state.withLock { $0.received }
    }

    /// Stops accepting; connections already accepted finish on their own.
    func stop() {
        let wasStopped = state.withLock { state in
            defer { state.stopped = true }
            return state.stopped
        }
        guard !wasStopped else { return }
        _ = shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private var isStopped: Bool {
        state.withLock { $0.stopped }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR && !isStopped { continue }
                return
            }
            guard !isStopped else {
                close(connection)
                return
            }
            DispatchQueue.global().async { [self] in serve(connection) }
        }
    }

    /// Reads one request (headers, then `Content-Length` bytes), records it, answers 204.
    private func serve(_ connection: Int32) {
        defer { close(connection) }
        // A sender killed mid-request closes its socket; the timeout only bounds a stalled one.
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        var expectedLength: Int?
        while true {
            if headerEnd == nil, let found = buffer.range(of: separator) {
                headerEnd = found
                expectedLength = Self.contentLength(String(decoding: buffer[..<found.lowerBound], as: UTF8.self))
                guard expectedLength != nil else { return }
            }
            if let headerEnd, let expectedLength, buffer.count - headerEnd.upperBound >= expectedLength { break }
            guard buffer.count < 4 * 1024 * 1024 else { return }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }  // closed or failed before the request was complete
            buffer.append(contentsOf: chunk[0..<count])
        }
        guard let headerEnd, let expectedLength else { return }
        let headers = Self.headers(String(decoding: buffer[..<headerEnd.lowerBound], as: UTF8.self))
        let body = Data(buffer[headerEnd.upperBound..<(headerEnd.upperBound + expectedLength)])
        let entry = Received(
            id: headers["webhook-id"] ?? "", timestamp: headers["webhook-timestamp"] ?? "",
            signature: headers["webhook-signature"] ?? "", body: body)
        state.withLock { $0.received.append(entry) }
        let answer = Array("HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        #if os(Linux)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, flags) }
    }

    /// Lower-cased header names to values (the request line skipped).
    static func headers(_ head: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    /// The body length a request announces: `Content-Length`, 0 without one, nil when chunked
    /// (which webhook senders here never use).
    static func contentLength(_ head: String) -> Int? {
        let fields = headers(head)
        if fields["transfer-encoding"] != nil { return nil }
        guard let text = fields["content-length"] else { return 0 }
        return Int(text)
    }
}
