import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioHTTP
import Testing

@testable import ProvisioServer

/// An error answer is logged as what it is: a refusal of the request at info, a state the
/// operator set up (no network connector) at warning, a fault at error as "request failed" —
/// the line the suites and an on-call alert treat as a server fault. Before, a 503
/// `network_connector_not_configured` was logged at error as "request failed".
@Suite struct ErrorLogLevelTests {
    @Test func levelsFollowTheCode() {
        let dialect = WireDialect.provisio
        #expect(dialect.logLevel(for: .cardNotFound) == .info)
        #expect(dialect.logLevel(for: .insufficientScope) == .info)
        #expect(dialect.logLevel(for: .networkConnectorNotConfigured) == .warning)
        #expect(dialect.logLevel(for: .otpRelayNotConfigured) == .warning)
        // A network that is down or a database that cannot be used is a fault someone must see.
        #expect(dialect.logLevel(for: .networkUnavailable) == .error)
        #expect(dialect.logLevel(for: .databaseUnavailable) == .error)
        #expect(dialect.logLevel(for: .internalError) == .error)
    }

    @Test func anUnconfiguredConnectorAndARefusalAreNotFailedRequests() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            _ = try await server.makeCard(apiKey: apiKey)
            let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
            let token = try await TokenAPITests.decide(
                server, networkKey: networkKey, TokenAPITests.networkTokenRequest(ref: "ref-log-level")
            ).ok.body.json
            let unconfigured = try await TokenAPITests.transition(server, apiKey: apiKey, token.tokenId, .suspend)
            #expect(unconfigured.refused(503, .networkConnectorNotConfigured), "\(unconfigured)")
            let missing = try await server.raw.get("/v1/cards/card_unknown", token: apiKey)
            #expect(missing.refused(404, .cardNotFound))

            #expect(server.logs.count(containing: "request failed") == 0, "\(server.logs.text)")
            #expect(server.logs.count(containing: "warning", "network_connector_not_configured") == 1)
            #expect(server.logs.count(containing: "info", "request refused", "card_not_found") == 1)
        }
    }
}
