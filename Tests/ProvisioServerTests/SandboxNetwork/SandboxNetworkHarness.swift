import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import ProvisioSandboxServer
import Testing

@testable import ProvisioServer

/// The whole chain on one machine: a live Provisio (the issuer), the sandbox wallet and Apple's
/// service, and the sandbox network — reaching Provisio over HTTP with a network key, and
/// reached by Provisio through its connector API, served over HTTP on loopback. Tests drive
/// the sandbox objects directly (they play the cardholder); Provisio sees only HTTP.
struct SandboxNetworkHarness: Sendable {
    let server: TestServer
    let apiKey: String
    let tenantID: String
    let networkKey: String
    let cardID: String
    let wallet: SandboxWallet
    let network: SandboxNetworkTokenService
    let apple: SandboxAppleProvisioningService
    /// Where the sandbox's HTTP service listens (connector and control API).
    let sandboxURL: String
    let sandboxKey: String

    static let pan = "4111111111111111"

    /// Runs `body` with the sandbox service up and the tenant's network connection set to it.
    static func run<T: Sendable>(
        _ server: TestServer, defaultRisk: RiskAssessment = .green, _ body: @Sendable (Self) async throws -> T
    ) async throws -> T {
        let setup = try await SandboxTenantWorld.make(server, pan: pan, defaultRisk: defaultRisk)
        let (tenantID, apiKey, cardID, networkKey, world) = (
            setup.tenantID, setup.apiKey, setup.cardID, setup.networkKey, setup.world
        )
        let sandboxKey = "sbx_key_" + UUID().uuidString.lowercased()
        return try await SandboxServiceRunner.run(world: world, apiKey: sandboxKey, logger: server.logs.logger(label: "sandbox"))
        {
            sandboxURL in
            let connected = try await server.client.send(
                .put, "/v1/settings/network", token: apiKey,
                body: try JSONSerialization.data(withJSONObject: ["url": sandboxURL, "api_key": sandboxKey]))
            #expect(connected.status == 200, "\(connected.text)")
            return try await body(
                Self(
                    server: server, apiKey: apiKey, tenantID: tenantID, networkKey: networkKey, cardID: cardID,
                    wallet: world.wallet, network: world.network, apple: world.apple, sandboxURL: sandboxURL,
                    sandboxKey: sandboxKey))
        }
    }

    /// What the issuer app does on "Add to Apple Wallet": PassKit's session, Provisio's answer,
    /// and PassKit handing that answer to Apple (which forwards it to the network).
    func add(on kind: SandboxDeviceKind = .phone, through service: SandboxAppleProvisioningService? = nil)
        async throws -> ProvisioningSubmission
    {
        let (session, response) = try await answeredSession(on: kind)
        return try await (service ?? apple).submit(sessionID: session.id, response: response, scheme: .eccV2)
    }

    /// Like `add`, for an add the network refuses: the error it throws.
    func refusedAdd(on kind: SandboxDeviceKind = .phone) async throws -> (AddPaymentPassSession, ProvisioError) {
        let (session, response) = try await answeredSession(on: kind)
        do {
            _ = try await apple.submit(sessionID: session.id, response: response, scheme: .eccV2)
        } catch let error as ProvisioError {
            return (session, error)
        }
        Issue.record("The add was expected to be refused.")
        throw ProvisioError(.init("test_failed", status: .internalServerError), "not refused")
    }

    private func answeredSession(on kind: SandboxDeviceKind) async throws -> (AddPaymentPassSession, ApplePayloadResponse) {
        let session = try await wallet.beginAdd(on: kind, scheme: .eccV2, primaryAccountIdentifier: cardID)
        let answer = try await server.client.post(
            "/v1/cards/\(cardID)/provisioning/apple-pay", token: apiKey,
            json: [
                "certificates": session.certificatesBase64, "nonce": session.nonce.base64EncodedString(),
                "nonce_signature": session.nonceSignature.base64EncodedString(),
                "encryption_scheme": EncryptionScheme.eccV2.rawValue,
                "device_type": kind.deviceType.rawValue,
            ])
        #expect(answer.status == 200, "\(answer.text)")
        let json = try #require(answer.json)
        var response = try #require(
            try? JSONDecoder().decode(
                ApplePayloadResponse.self,
                from: JSONSerialization.data(withJSONObject: [
                    "encryptedPassData": json["encrypted_pass_data"] ?? "", "activationData": json["activation_data"] ?? "",
                ])))
        response.ephemeralPublicKey = json["ephemeral_public_key"] as? String
        response.wrappedKey = json["wrapped_key"] as? String
        return (session, response)
    }

    /// Provisio's tokens for the card, as the issuer's backend lists them.
    func issuerTokens() async throws -> [[String: Any]] {
        let listed = try await server.client.get("/v1/tokens?card_id=\(cardID)", token: apiKey)
        #expect(listed.status == 200, "\(listed.text)")
        #expect(!listed.text.contains(Self.pan))
        return try #require(listed.json?["data"] as? [[String: Any]])
    }

    func issuerToken(_ id: String) async throws -> [String: Any] {
        try #require(try await issuerTokens().first { $0["id"] as? String == id })
    }

    /// A TAV from Provisio for a pending token (`POST /v1/tokens/{id}/activation {mode: tav}`).
    func activationData(tokenID: String) async throws -> String {
        let activation = try await server.client.post(
            "/v1/tokens/\(tokenID)/activation", token: apiKey, json: ["mode": "tav"])
        #expect(activation.status == 200, "\(activation.text)")
        return try #require(activation.json?["activation_data"] as? String)
    }
}

extension RiskAssessment {
    static let green = RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .approve)
    static let yellow = RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .requireVerification)
    static let red = RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .decline)
}

/// The error an async call throws, as a `ProvisioError` (nil when it succeeds).
func networkError<T>(_ body: () async throws -> T) async -> ProvisioError? {
    do {
        _ = try await body()
        return nil
    } catch let error as ProvisioError {
        return error
    } catch {
        Issue.record("Unexpected error \(error)")
        return nil
    }
}
