import Foundation
import Logging
import ProvisioCore
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
            for (url, code) in Self.refusedURLs {
                let hook = try await server.client.post(
                    "/v1/webhook-endpoints", token: apiKey, json: ["url": url, "events": ["*"]])
                #expect(hook.status == 400 && hook.errorCode == code, "\(url): \(hook.text)")
                #expect(!hook.text.contains(url), "the error repeats the URL")
                let network = try await server.client.send(
                    .put, "/v1/settings/network", token: apiKey,
                    body: try JSONSerialization.data(withJSONObject: ["url": url, "api_key": "prv_test_key_123"]))
                #expect(network.status == 400 && network.errorCode == code, "\(url): \(network.text)")
            }
            let listed = try await server.client.get("/v1/webhook-endpoints", token: apiKey)
            #expect((listed.json?["data"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func aNameThatResolvesInsideIsRefusedWhenTheCallIsMade() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { receiver.stop() }
        try await TestServer.run(.sqlite, outbound: Self.guarded()) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            var endpointIDs: [String] = []
            // The names pass when set (they are names); what they resolve to is checked per call.
            for host in ["hooks.example.test", "mixed.example.test", "metadata.example.test"] {
                let created = try await server.client.post(
                    "/v1/webhook-endpoints", token: apiKey,
                    json: ["url": "http://\(host):\(receiver.port)/hooks", "events": ["webhook.test"]])
                #expect(created.status == 201, "\(created.text)")
                endpointIDs.append(try #require(created.json?["id"] as? String))
            }
            for id in endpointIDs {
                _ = try await server.services.webhooks.sendTestEvent(endpointID: id, tenantID: tenantID)
            }
            let worker = server.services.webhookWorker(policy: WebhookDeliveryTests.fastPolicy, logger: Logger(label: "w"))
            #expect(try await worker.deliverDue() == 3)
            #expect(receiver.deliveries.isEmpty, "a refused address was reached")
            let rows = try await server.client.get("/v1/webhook-deliveries", token: apiKey).json?["data"] as? [[String: Any]]
            #expect(rows?.count == 3)
            for row in rows ?? [] {
                let error = row["last_error"] as? String ?? ""
                #expect(error.contains("outbound_address_refused"), "\(error)")
                // The listing names a class of address, never the address or the port.
                #expect(!error.contains("127.0.0.1") && !error.contains("\(receiver.port)") && !error.contains("10.0.0.7"))
                #expect(row["last_response_status"] == nil || row["last_response_status"] is NSNull)
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
            // A webhook answered with a redirect is a failed delivery; the target sees nothing.
            let created = try await server.client.post(
                "/v1/webhook-endpoints", token: apiKey, json: ["url": redirector.url, "events": ["webhook.test"]])
            let endpointID = try #require(created.json?["id"] as? String)
            _ = try await server.services.webhooks.sendTestEvent(endpointID: endpointID, tenantID: tenantID)
            let worker = server.services.webhookWorker(policy: WebhookDeliveryTests.fastPolicy, logger: Logger(label: "w"))
            #expect(try await worker.deliverDue() == 1)
            let row = try #require(
                (try await server.client.get("/v1/webhook-deliveries", token: apiKey).json?["data"] as? [[String: Any]])?.first)
            #expect(row["last_response_status"] as? Int == 302)
            #expect(redirector.deliveries.count == 1 && target.deliveries.isEmpty)

            // The network connector: the redirect is not followed, the key goes only where it was
            // set, and the remote's text is not repeated to the issuer.
            let put = try await server.client.send(
                .put, "/v1/settings/network", token: apiKey,
                body: try JSONSerialization.data(withJSONObject: [
                    "url": "http://127.0.0.1:\(redirector.port)", "api_key": "prv_connector_key_1",
                ]))
            #expect(put.status == 200, "\(put.text)")
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            let card = try await server.makeCard(apiKey: apiKey)["id"] as! String
            _ = card
            let decided = try await server.client.post(
                "/v1/network/token-requests", token: networkKey, json: TokenAPITests.tokenRequest(ref: "ref-redirect"))
            let tokenID = try #require(decided.json?["token_id"] as? String, "\(decided.text)")
            _ = try await server.client.post(
                "/v1/network/tokens/ref-redirect/events", token: networkKey, json: ["event": "activated"])
            let suspend = try await server.client.post(
                "/v1/tokens/\(tokenID)/transitions", token: apiKey, json: ["action": "suspend"])
            #expect(suspend.status == 409 && suspend.errorCode == "network_refused", "\(suspend.text)")
            #expect(!suspend.text.contains("INTERNAL-SECRET-TEXT"))
            #expect(redirector.deliveries.last?.authorization == "Bearer prv_connector_key_1")
            #expect(target.deliveries.isEmpty, "the redirect was followed")
        }
    }

    @Test func productionRefusesPlainHTTPDestinations() async throws {
        try await TestServer.run(.sqlite, outbound: OutboundHTTPClient(policy: .production)) { server in
            let (_, apiKey) = try await server.makeTenant()
            let hook = try await server.client.post(
                "/v1/webhook-endpoints", token: apiKey, json: ["url": "http://example.com/hook", "events": ["*"]])
            #expect(hook.status == 400 && hook.errorCode == "outbound_https_required", "\(hook.text)")
            let https = try await server.client.post(
                "/v1/webhook-endpoints", token: apiKey, json: ["url": "https://example.com/hook", "events": ["*"]])
            #expect(https.status == 201)
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
            var ids: [String] = []
            for index in 0..<3 {
                let created = try await server.client.post(
                    "/v1/webhook-endpoints", token: apiKey, json: ["url": "https://example.com/h\(index)", "events": ["*"]])
                ids.append(try #require(created.json?["id"] as? String))
            }
            let test = try await server.client.post("/v1/webhook-endpoints/\(ids[1])/test", token: apiKey, json: [String: Any]())
            #expect(test.status == 202)
            let rows = try await server.client.get("/v1/webhook-deliveries", token: apiKey).json?["data"] as? [[String: Any]]
            #expect(rows?.map { $0["endpoint_id"] as? String } == [ids[1]])
        }
    }

    @Test func endpointsPerTenantAreCapped() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            for index in 0..<WebhookService.maximumEndpointsPerTenant {
                let created = try await server.client.post(
                    "/v1/webhook-endpoints", token: apiKey, json: ["url": "https://example.com/h\(index)", "events": ["*"]])
                #expect(created.status == 201)
            }
            let over = try await server.client.post(
                "/v1/webhook-endpoints", token: apiKey, json: ["url": "https://example.com/over", "events": ["*"]])
            #expect(over.status == 409 && over.errorCode == "webhook_endpoint_limit_reached")
        }
    }
}
