import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bare TCP connection to a loopback port, for what an HTTP client library will not send:
/// half a request line, oversized headers, a NUL in a header, a body that never ends. Reads
/// block a dispatch thread, never one of Swift concurrency's few threads, which the server
/// under test needs.
///
/// `@unchecked Sendable`: the descriptor is used by one caller at a time (each test awaits
/// every read before the next call).
final class RawConnection: @unchecked Sendable {
    private let fd: Int32

    init(port: Int) throws {
        #if os(Linux)
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw TestSetupError("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw TestSetupError("connect() failed")
        }
    }

    deinit { close(fd) }

    func send(_ text: String) throws { try send(Data(text.utf8)) }

    func send(_ data: Data) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { throw TestSetupError("send() failed") }
                offset += sent
            }
        }
    }

    /// Reads until the peer closes or `timeout` passes; `closed` tells which.
    func readUntilClosed(timeout: Duration) async -> (data: Data, closed: Bool) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.blockingRead(timeout: timeout)) }
        }
    }

    private func blockingRead(timeout: Duration) -> (data: Data, closed: Bool) {
        var received = Data()
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let remaining = deadline - ContinuousClock.now
            let milliseconds = max(
                1, Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&poller, 1, milliseconds) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return (received, true) }
            received.append(contentsOf: buffer[0..<count])
        }
        return (received, false)
    }

}
