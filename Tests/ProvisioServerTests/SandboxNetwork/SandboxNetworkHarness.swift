import Crypto
import Foundation
import ProvisioAPI
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

    /// Runs `body` with the sandbox service up and the tenant's network connection set to it
    /// (Provisio's dialect); with `oauthVerifier`, the service serves MDES's Customer Service API
    /// too, for a test to switch the tenant to.
    static func run<T: Sendable>(
        _ server: TestServer, defaultRisk: RiskAssessment = .green, oauthVerifier: SandboxOAuthVerifier? = nil,
        mastercardKey: SandboxMastercardEncryptionKey? = nil, _ body: @Sendable (Self) async throws -> T
    ) async throws -> T {
        let setup = try await SandboxTenantWorld.make(server, pan: pan, defaultRisk: defaultRisk)
        let (tenantID, apiKey, cardID, networkKey, world) = (
            setup.tenantID, setup.apiKey, setup.cardID, setup.networkKey, setup.world
        )
        let sandboxKey = "sbx_key_" + UUID().uuidString.lowercased()
        return try await SandboxServiceRunner.run(
            world: world, apiKey: sandboxKey, oauthVerifier: oauthVerifier, mastercardKey: mastercardKey,
            logger: server.logs.logger(label: "sandbox")
        ) { sandboxURL in
            _ = try await server.api(apiKey).setNetworkSettings(body: .json(.init(url: sandboxURL, apiKey: sandboxKey))).ok
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
        throw ProvisioError(.init("test_failed"), "not refused")
    }

    private func answeredSession(on kind: SandboxDeviceKind) async throws -> (AddPaymentPassSession, ApplePayloadResponse) {
        let session = try await wallet.beginAdd(on: kind, scheme: .eccV2, primaryAccountIdentifier: cardID)
        let answer = try await server.api(apiKey).provisionApplePay(
            path: .init(id: cardID),
            body: .json(
                .init(
                    certificates: session.certificatesBase64, nonce: session.nonce.base64EncodedString(),
                    nonceSignature: session.nonceSignature.base64EncodedString(),
                    encryptionScheme: EncryptionScheme.eccV2.rawValue,
                    deviceType: .init(rawValue: kind.deviceType.rawValue)))
        ).ok.body.json
        // PassKit hands Apple the answer's fields as they came.
        var response = try APIJSON.decode(
            ApplePayloadResponse.self,
            from: try APIJSON.encode(["encryptedPassData": answer.encryptedPassData, "activationData": answer.activationData]))
        response.ephemeralPublicKey = answer.ephemeralPublicKey
        response.wrappedKey = answer.wrappedKey
        return (session, response)
    }

    /// Provisio's tokens for the card, as the issuer's backend lists them (with no PAN in the
    /// bytes of the answer).
    func issuerTokens() async throws -> [Components.Schemas.Token] {
        let listed = try await server.api(apiKey).listTokens(query: .init(cardId: cardID)).ok.body.json
        let bytes = try #require(server.answers.all.last { $0.operationID == "listTokens" })
        #expect(!bytes.text.contains(Self.pan))
        return listed.data
    }

    func issuerToken(_ id: String) async throws -> Components.Schemas.Token {
        try #require(try await issuerTokens().first { $0.id == id })
    }

    /// A TAV from Provisio for a pending token (`POST /v1/tokens/{id}/activation {mode: tav}`).
    func activationData(tokenID: String) async throws -> String {
        let activation = try await server.api(apiKey).activateToken(path: .init(id: tokenID), body: .json(.init(mode: .tav)))
            .ok.body.json
        return try #require(activation.activationData)
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
