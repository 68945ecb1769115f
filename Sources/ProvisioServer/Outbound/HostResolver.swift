import Foundation
import NIOPosix
import ProvisioOutbound

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns a host name into the addresses a connection could reach. A port, so tests can make a
/// name resolve to a loopback or private address without touching DNS.
public protocol HostResolver: Sendable {
    func addresses(of host: String) async throws -> [IPAddress]
}

/// The system resolver (`getaddrinfo`), run on NIO's blocking-I/O thread pool so a slow DNS
/// server never holds a cooperative thread.
public struct SystemHostResolver: HostResolver {
    public init() {}

    public func addresses(of host: String) async throws -> [IPAddress] {
        try await NIOThreadPool.singleton.runIfActive { try Self.resolve(host) }
    }

    static func resolve(_ host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if os(Linux)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else {
            throw OutboundHTTPClient.unreachable()
        }
        defer { freeaddrinfo(list) }
        var found: [IPAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor?.pointee {
            if let sockaddr = entry.ai_addr {
                switch entry.ai_family {
                case AF_INET:
                    let bytes = sockaddr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                        withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
                    }
                    if let address = IPAddress(bytes: bytes) { found.append(address) }
                case AF_INET6:
                    let bytes = sockaddr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                        withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                    }
                    if let address = IPAddress(bytes: bytes) { found.append(address) }
                default:
                    break
                }
            }
            cursor = entry.ai_next
        }
        return found
    }
}

/// Fixed answers, for tests and for pinning a name in development.
public struct StaticHostResolver: HostResolver {
    let table: [String: [IPAddress]]

    public init(_ table: [String: [IPAddress]]) {
        self.table = table
    }

    public func addresses(of host: String) async throws -> [IPAddress] {
        guard let addresses = table[host.lowercased()], !addresses.isEmpty else { throw OutboundHTTPClient.unreachable() }
        return addresses
    }
}
