import Foundation
import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxServer

/// A tenant with one card (`pan`) at a live Provisio, and a sandbox world — wallet, Apple's
/// service, network — whose network reaches that Provisio with the tenant's network key, and
/// holds the private half of the key Provisio seals opaque payment cards to.
struct SandboxTenantWorld: Sendable {
    let tenantID: String
    let apiKey: String
    let cardID: String
    let networkKey: String
    let world: SandboxHTTPWorld

    /// - Parameter googleKey: Google's OpenPGP key for the world's Google Wallet (UPP); without
    ///   one, it takes legacy pushes only.
    static func make(_ server: TestServer, pan: String, defaultRisk: RiskAssessment, googleKey: SandboxGoogleKey? = nil)
        async throws -> Self
    {
        let (tenantID, apiKey) = try await server.makeTenant()
        let cardID = try await server.makeCard(apiKey: apiKey, pan: pan).id
        // Customer service is offered only with a number to call (issue 25).
        _ = try await server.api(apiKey).setActivationMethodSettings(
            body: .json(.init(customerServicePhoneNumber: "+1 800 555 0100"))
        ).ok
        guard let port = server.raw.port else { throw TestSetupError("no server port") }
        let networkKey = try await server.services.access.createNetworkKey(tenantID: tenantID)
        let wallet = SandboxWallet(certificateAuthority: server.ca, clock: server.clock)
        let network = SandboxNetworkTokenService(
            wallet: wallet, issuer: IssuerConnection(baseURL: "http://127.0.0.1:\(port)", networkKey: networkKey),
            issuerTAVPublicKey: server.keys.tavSigningKey.publicKey, clock: server.clock,
            opcKey: SandboxOPCKey(privateKey: server.networkKey), defaultRisk: defaultRisk)
        let google = googleKey.map { SandboxGoogleWallet(tokenService: network, googleKey: $0, clock: server.clock) }
        return Self(
            tenantID: tenantID, apiKey: apiKey, cardID: cardID, networkKey: networkKey,
            world: SandboxHTTPWorld(network: network, google: google))
    }
}
