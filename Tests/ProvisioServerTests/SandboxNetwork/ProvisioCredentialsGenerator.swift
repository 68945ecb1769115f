import Foundation
import ProvisioAPI
import ProvisioOpenPGP
import ProvisioSandbox
import Testing

/// The issuer's app with Provisio as its backend: it forwards Google's request as
/// `credentials_request` to `POST /v1/cards/{id}/provisioning/google-pay` and hands back both
/// opaque payment cards Provisio answers.
struct ProvisioCredentialsGenerator: PaymentCredentialsGenerator {
    var harness: SandboxNetworkHarness

    func generate(_ request: GeneratePaymentCredentialsRequest) async throws -> GeneratedPaymentCredentials {
        let credentials = Components.Schemas.GooglePaymentCredentialsRequest(
            serverSessionId: request.serverSessionID, stableHardwareId: request.stableHardwareID,
            walletId: request.walletID, tokenRequestorId: request.tokenRequestorID,
            googleOpaquePaymentCardRequested: request.googleOpaquePaymentCardRequested)
        let push = try await harness.server.api(harness.apiKey).provisionGooglePay(
            path: .init(id: harness.cardID),
            body: .json(
                .init(userAddress: .init(name: "Jane Appleseed", countryCode: "US"), credentialsRequest: credentials))
        ).ok.body.json
        #expect(!push.opaquePaymentCard.contains(SandboxNetworkHarness.pan))
        #expect(push.googleOpaquePaymentCard?.contains(SandboxNetworkHarness.pan) == false)
        return GeneratedPaymentCredentials(
            opaquePaymentCard: push.opaquePaymentCard, googleOpaquePaymentCard: push.googleOpaquePaymentCard)
    }
}

extension SandboxNetworkHarness {
    /// The onboarding both sides do out of band: the tenant gives Provisio Google's public key
    /// (`PUT /v1/settings/google-pay`), and Google registers the tenant's signing key
    /// (`GET /v1/settings/google-pay` → `issuer_signing_key`).
    func exchangeGooglePayKeys(_ google: SandboxGoogleWallet) async throws {
        let api = server.api(apiKey)
        let armored = try #require(google.googleKey?.publicKey.armored)
        _ = try await api.setGooglePaySettings(body: .json(.init(googleEncryptionKeys: [armored]))).ok
        let settings = try await api.getGooglePaySettings().ok.body.json
        try await google.registerIssuerKey(OpenPGPPublicKey(Data(settings.issuerSigningKey.armored.utf8)))
    }
}
