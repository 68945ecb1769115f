import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ProvisioCore
import ProvisioOutbound

/// Every HTTP call Provisio makes to an address a tenant chose (webhook endpoints, the card
/// network's connector) goes through here, so server-side request forgery is refused in one
/// place:
///
/// - the URL is checked by the `OutboundPolicy` (scheme, credentials, numeric tricks);
/// - the host is resolved now and *every* address it resolves to must be allowed (loopback,
///   private, link-local, metadata, multicast … are refused unless the operator allows them);
/// - the connection goes to the address that was checked (AsyncHTTPClient's DNS override), so
///   a name that resolves differently a moment later (DNS rebinding) cannot redirect it, while
///   TLS still verifies the certificate against the name;
/// - redirects are never followed, answers are read only up to a bound, and failures are
///   reported without the remote's words (a delivery list must not become a port scanner);
/// - a name that resolves to a refused address fails like an unreachable one: the tenant chose
///   the name, and telling them the class of address it has inside would make the server a DNS
///   probe of its own network.
public struct OutboundHTTPClient: Sendable {
    public let policy: OutboundPolicy
    let resolver: any HostResolver
    /// Whose calls these are (a tenant id, or `server` for the operator's own): the pool keeps
    /// a bounded number of clients per owner.
    let owner: String
    let pool: OutboundClientPool

    public init(policy: OutboundPolicy, resolver: any HostResolver = SystemHostResolver()) {
        self.init(policy: policy, resolver: resolver, owner: "server", pool: .shared)
    }

    init(policy: OutboundPolicy, resolver: any HostResolver, owner: String, pool: OutboundClientPool) {
        self.policy = policy
        self.resolver = resolver
        self.owner = owner
        self.pool = pool
    }

    /// The same client, its calls counted against `tenantID`'s share of the pool.
    public func owned(by tenantID: String) -> OutboundHTTPClient {
        OutboundHTTPClient(policy: policy, resolver: resolver, owner: "tenant:\(tenantID)", pool: pool)
    }

    /// What came back: the status and at most `maximumAnswerBytes` of the body.
    public struct Answer: Sendable {
        public var status: Int
        public var body: Data
    }

    /// Checks a URL a tenant sets (at configuration time); resolution waits for the call.
    public func validate(_ url: String) throws -> OutboundURL {
        try policy.checkURL(url)
    }

    public func post(
        _ url: String, headers: [(name: String, value: String)], body: Data, timeout: Duration,
        maximumAnswerBytes: Int = 64 * 1024
    ) async throws -> Answer {
        let target = try policy.checkURL(url)
        let address = try await checkedAddress(for: target)

        var request = HTTPClientRequest(url: target.url)
        request.method = .POST
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let result: Result<Answer, ProvisioError> = await pool.withClient(
            owner: owner, host: target.host, address: address.description, pinned: !target.isIPLiteral
        ) { client in
            do {
                let response = try await client.execute(request, timeout: .milliseconds(timeout.milliseconds))
                do {
                    let answer = Data(buffer: try await response.body.collect(upTo: maximumAnswerBytes))
                    return .success(Answer(status: Int(response.status.code), body: answer))
                } catch is NIOTooManyBytesError {
                    return .failure(
                        ProvisioError(
                            .outboundAnswerTooLarge, "The endpoint's answer is larger than \(maximumAnswerBytes) bytes."))
                }
            } catch {
                // Refused, reset, unresolvable or too slow are one answer: telling them apart
                // would let a delivery list map which ports answer where.
                return .failure(Self.unreachable())
            }
        }
        return try result.get()
    }

    /// The address to connect to: the literal, or the first of the resolved addresses once all
    /// of them have passed the policy (a name that also resolves to an internal address is
    /// refused outright, rather than hoping the connection picks the public one).
    func checkedAddress(for target: OutboundURL) async throws -> IPAddress {
        if let literal = target.address {
            try policy.check(literal)
            return literal
        }
        let addresses = try await resolver.addresses(of: target.host)
        guard let first = addresses.first, addresses.allSatisfy(policy.allows) else { throw Self.unreachable() }
        return first
    }

    static func unreachable() -> ProvisioError {
        ProvisioError(.outboundUnreachable, "The endpoint could not be reached or did not answer in time.")
    }
}
