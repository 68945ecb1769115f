import Foundation
import Logging
import ProvisioAPI
import ProvisioCore
import ProvisioOutbound
import Testing

@testable import ProvisioServer

/// Server-side request forgery: a tenant chooses webhook URLs and its network connector's URL,
/// so every outbound call is checked where it is made — the URL when it is set, every address
/// the host resolves to when the call is made — redirects are never followed, and nothing the
/// remote says is repeated to the caller.
@Suite struct OutboundRequestForgeryTests {
    /// Production's address rules, but plain http allowed so loopback listeners can stand in
    /// for the issuer's servers; `hooks.example.test` resolves to loopback, as a DNS name an
    /// attacker controls would.
    static func guarded(allowLoopback: Bool = false) -> OutboundHTTPClient {
        OutboundHTTPClient(
            policy: OutboundPolicy(allowLoopback: allowLoopback, allowedRanges: [], requireHTTPS: false),
            resolver: StaticHostResolver([
                "hooks.example.test": [IPAddress("127.0.0.1")!],
                "mixed.example.test": [IPAddress("93.184.216.34")!, IPAddress("10.0.0.7")!],
                "metadata.example.test": [IPAddress("169.254.169.254")!],
            ]))
    }

    static let refusedURLs: [(String, String)] = [
        ("http://127.0.0.1:9/hook", "outbound_address_refused"),
        ("http://localhost:9/hook", "outbound_address_refused"),
        ("http://[::1]:9/hook", "outbound_address_refused"),
        ("http://[::ffff:127.0.0.1]/hook", "outbound_address_refused"),
        ("http://10.1.2.3/hook", "outbound_address_refused"),
        ("http://192.168.0.10/hook", "outbound_address_refused"),
        ("http://169.254.169.254/latest/meta-data", "outbound_address_refused"),
        ("http://0.0.0.0:8080/hook", "outbound_address_refused"),
        ("http://2130706433/hook", "outbound_url_invalid"),
        ("http://0x7f000001/hook", "outbound_url_invalid"),
        ("http://127.1/hook", "outbound_url_invalid"),
        ("http://user:pass@example.com/hook", "outbound_url_has_credentials"),
        ("http://example.com@127.0.0.1/hook", "outbound_url_has_credentials"),
        ("ftp://example.com/hook", "outbound_url_invalid"),
    ]

    @Test func webhookAndNetworkURLsAimedInsideAreRefusedWhenSet() async throws {
        try await TestServer.run(.sqlite, outbound: Self.guarded()) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            for (url, code) in Self.refusedURLs {
                let hook = try await api.createWebhookEndpoint(body: .json(.init(url: url, events: [._ast_])))
                #expect(hook.refusal?.status == 400 && hook.refusal?.code.rawValue == code, "\(url): \(hook)")
                #expect(!(server.answers.all.last?.text.contains(url) ?? true), "the error repeats the URL")
                let network = try await api.setNetworkSettings(body: .json(.init(url: url, apiKey: "prv_test_key_123")))
                #expect(network.refusal?.status == 400 && network.refusal?.code.rawValue == code, "\(url): \(network)")
            }
            let listed = try await api.listWebhookEndpoints().ok.body.json
            #expect(listed.data.isEmpty)
        }
    }

    @Test func aNameThatResolvesInsideIsRefusedWhenTheCallIsMade() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(.sqlite, outbound: Self.guarded()) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            var endpointIDs: [String] = []
            // The names pass when set (they are names); what they resolve to is checked per call.
            for host in ["hooks.example.test", "mixed.example.test", "metadata.example.test"] {
                let created = try await api.createWebhookEndpoint(
                    body: .json(.init(url: "http://\(host):\(receiver.port)/hooks", events: [.webhook_test])))
                endpointIDs.append(try created.created.body.json.id)
            }
            for id in endpointIDs {
                _ = try await server.services.webhooks.sendTestEvent(endpointID: id, tenantID: tenantID)
            }
            let worker = server.services.webhookWorker(policy: WebhookDeliveryTests.fastPolicy, logger: Logger(label: "w"))
            #expect(try await worker.deliverDue() == 3)
            #expect(receiver.deliveries.isEmpty, "a refused address was reached")
            let rows = try await api.listWebhookDeliveries().ok.body.json.data
            #expect(rows.count == 3)
            for row in rows {
                let error = row.lastError ?? ""
                // One generic failure: the listing names neither the address, the port nor the
                // class of address the tenant's name resolved to (that would probe the server's
                // own network through DNS).
                #expect(error.contains("outbound_unreachable"), "\(error)")
                #expect(!error.contains("127.0.0.1") && !error.contains("\(receiver.port)") && !error.contains("10.0.0.7"))
                for word in ["loopback", "private", "link-local", "metadata", "internal"] {
                    #expect(!error.lowercased().contains(word), "\(error)")
                }
                #expect(row.lastResponseStatus == nil)
            }
        }
    }

    @Test func redirectsAreNeverFollowedAndTheBearerKeyNeverLeaves() async throws {
        let target = WebhookReceiver()
        try await target.start()
        defer { target.stop() }
        let redirector = WebhookReceiver()
        try await redirector.start()
        defer { redirector.stop() }
        redirector.setRedirect("http://127.0.0.1:\(target.port)/stolen")
        try await TestServer.run(.sqlite, outbound: Self.guarded(allowLoopback: true)) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            // A webhook answered with a redirect is a failed delivery; the target sees nothing.
            let endpointID = try await api.createWebhookEndpoint(
                body: .json(.init(url: redirector.url, events: [.webhook_test]))
            ).created.body.json.id
            _ = try await server.services.webhooks.sendTestEvent(endpointID: endpointID, tenantID: tenantID)
            let worker = server.services.webhookWorker(policy: WebhookDeliveryTests.fastPolicy, logger: Logger(label: "w"))
            #expect(try await worker.deliverDue() == 1)
            let row = try #require(try await api.listWebhookDeliveries().ok.body.json.data.first)
            #expect(row.lastResponseStatus == 302)
            #expect(redirector.deliveries.count == 1 && target.deliveries.isEmpty)

            // The network connector: the redirect is not followed, the key goes only where it was
            // set, and the remote's text is not repeated to the issuer.
            let put = try await api.setNetworkSettings(
                body: .json(.init(url: "http://127.0.0.1:\(redirector.port)", apiKey: "prv_connector_key_1")))
            #expect(put.status == 200, "\(put)")
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            _ = try await server.makeCard(apiKey: apiKey)
            let tokenID = try await TokenAPITests.decide(
                server, networkKey: networkKey, TokenAPITests.networkTokenRequest(ref: "ref-redirect")
            ).ok.body.json.tokenId
            _ = try await server.api(networkKey).reportTokenEvent(
                path: .init(ref: "ref-redirect"), body: .json(.init(event: .activated)))
            let suspend = try await TokenAPITests.transition(server, apiKey: apiKey, tokenID, .suspend)
            #expect(suspend.refused(409, .networkRefused), "\(suspend)")
            #expect(!(server.answers.all.last?.text.contains("INTERNAL-SECRET-TEXT") ?? true))
            #expect(redirector.deliveries.last?.authorization == "Bearer prv_connector_key_1")
            #expect(target.deliveries.isEmpty, "the redirect was followed")
        }
    }

    @Test func productionRefusesPlainHTTPDestinations() async throws {
        try await TestServer.run(.sqlite, outbound: OutboundHTTPClient(policy: .production)) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let hook = try await api.createWebhookEndpoint(body: .json(.init(url: "http://example.com/hook", events: [._ast_])))
            #expect(hook.refused(400, .outboundHttpsRequired), "\(hook)")
            let https = try await api.createWebhookEndpoint(body: .json(.init(url: "https://example.com/hook", events: [._ast_])))
            #expect(https.status == 201, "\(https)")
        }
        var configuration = ServerConfiguration()
        configuration.production = true
        #expect(configuration.outboundPolicy == .production)
        configuration.outboundAllowList = try OutboundPolicy.parseAllowList("10.20.0.0/16")
        #expect(configuration.outboundPolicy.allows(IPAddress("10.20.1.2")!))
        #expect(!configuration.outboundPolicy.allows(IPAddress("10.21.1.2")!))
        #expect(!configuration.outboundPolicy.allows(IPAddress("127.0.0.1")!))
        #expect(ServerConfiguration().outboundPolicy.allows(IPAddress("127.0.0.1")!))
    }

    @Test func aTestEventGoesOnlyToTheNamedEndpoint() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            var ids: [String] = []
            for index in 0..<3 {
                let created = try await api.createWebhookEndpoint(
                    body: .json(.init(url: "https://example.com/h\(index)", events: [._ast_])))
                ids.append(try created.created.body.json.id)
            }
            let test = try await api.sendTestWebhook(path: .init(id: ids[1]))
            #expect(test.status == 202, "\(test)")
            let rows = try await api.listWebhookDeliveries().ok.body.json.data
            #expect(rows.map(\.endpointId) == [ids[1]])
        }
    }

    @Test func endpointsPerTenantAreCapped() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            for index in 0..<WebhookService.maximumEndpointsPerTenant {
                let created = try await api.createWebhookEndpoint(
                    body: .json(.init(url: "https://example.com/h\(index)", events: [._ast_])))
                #expect(created.status == 201, "\(created)")
            }
            let over = try await api.createWebhookEndpoint(body: .json(.init(url: "https://example.com/over", events: [._ast_])))
            #expect(over.refused(409, .webhookEndpointLimitReached), "\(over)")
        }
    }
}
