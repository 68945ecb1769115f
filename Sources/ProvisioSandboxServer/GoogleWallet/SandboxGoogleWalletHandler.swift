import Foundation
import Logging
import OpenAPIRuntime
import ProvisioCore
import ProvisioHTTP
import ProvisioOpenPGP
import ProvisioSandbox
import ProvisioSandboxGoogleWalletAPI

/// The sandbox's Google Wallet over HTTP (`sandbox-google-wallet-openapi.yaml`): what the
/// issuer's Android app asks of TapAndPay and what the cardholder does in Google Wallet, played
/// by a test, the demo or an Android team's own tooling. It serves the protocol generated from
/// that document, next to the sandbox's own API and under the same key. Each operation maps
/// the wire to one call of `SandboxGoogleWallet`, which holds the behaviour.
struct SandboxGoogleWalletHandler: APIProtocol {
    let world: SandboxHTTPWorld
    let logger: Logger

    var google: SandboxGoogleWallet { world.google }

    /// The document served at `/openapi/google-wallet.yaml`.
    static let openAPIDocument = BundledDocument.text("sandbox-google-wallet-openapi", extension: "yaml", in: .module)

    /// The words each body field with a vocabulary takes, as the document lists them.
    static let vocabulary: [String: [String]] = [
        "network": Components.Schemas.GoogleCardNetwork.allCases.map(\.rawValue),
        "token_service_provider": Components.Schemas.GoogleTokenServiceProvider.allCases.map(\.rawValue),
        "step_up_response": Components.Schemas.GoogleStepUpResponse.StepUpResponsePayload.allCases.map(\.rawValue),
    ]

    /// Adds Google Wallet's operations to the sandbox's routes.
    static func register(world: SandboxHTTPWorld, logger: Logger, on transport: some ServerTransport) throws {
        try Self(world: world, logger: logger).registerHandlers(on: transport, configuration: WireCoding.openAPIConfiguration)
    }

    func getGoogleWalletOpenAPIDocument(_ input: Operations.GetGoogleWalletOpenAPIDocument.Input) async throws
        -> Operations.GetGoogleWalletOpenAPIDocument.Output
    {
        .ok(.init(body: .yaml(HTTPBody(Self.openAPIDocument))))
    }

    // MARK: - The wallet and the issuer's keys

    func getGoogleWallet(_ input: Operations.GetGoogleWallet.Input) async throws -> Operations.GetGoogleWallet.Output {
        .ok(.init(body: .json(try await wallet())))
    }

    func registerGoogleIssuerKey(_ input: Operations.RegisterGoogleIssuerKey.Input) async throws
        -> Operations.RegisterGoogleIssuerKey.Output
    {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let key: OpenPGPPublicKey
        do {
            key = try OpenPGPPublicKey(Data(body.publicKey.utf8))
        } catch {
            throw ProvisioError(
                .sandboxGoogleIssuerKeyInvalid, "The key is not an OpenPGP public key Google can verify signatures with.")
        }
        try await google.registerIssuerKey(key)
        logger.info("issuer key registered with Google", metadata: ["fingerprint": "\(key.fingerprint)"])
        return .ok(.init(body: .json(try await wallet())))
    }

    // MARK: - Pushes

    func pushTokenizeLegacy(_ input: Operations.PushTokenizeLegacy.Input) async throws
        -> Operations.PushTokenizeLegacy.Output
    {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let result = try await google.pushTokenize(
            opc: Data(body.opaquePaymentCard.utf8), network: try .init(body.network),
            tokenServiceProvider: try .init(body.tokenServiceProvider), displayName: body.displayName,
            lastDigits: body.lastDigits, address: body.userAddress.map(GoogleUserAddress.init))
        return .ok(.init(body: .json(try .init(result))))
    }

    func beginGoogleBounceProvisioning(_ input: Operations.BeginGoogleBounceProvisioning.Input) async throws
        -> Operations.BeginGoogleBounceProvisioning.Output
    {
        let intent = await google.beginBounceProvisioning()
        return .ok(
            .init(body: .json(.init(action: intent.action, packageName: intent.packageName, expiresAt: intent.expiresAt))))
    }

    func beginGooglePush(_ input: Operations.BeginGooglePush.Input) async throws -> Operations.BeginGooglePush.Output {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let session = try await google.beginPushTokenize(
            network: try .init(body.network), tokenServiceProvider: try .init(body.tokenServiceProvider),
            displayName: body.displayName, lastDigits: body.lastDigits, address: body.userAddress.map(GoogleUserAddress.init),
            isBounceProvisioned: body.isBounceProvisioned ?? false)
        let request = session.credentialsRequest
        return .created(
            .init(
                body: .json(
                    .init(
                        id: session.id,
                        credentialsRequest: .init(
                            serverSessionId: request.serverSessionID, stableHardwareId: request.stableHardwareID,
                            walletId: request.walletID, tokenRequestorId: request.tokenRequestorID,
                            googleOpaquePaymentCardRequested: request.googleOpaquePaymentCardRequested),
                        expiresAt: session.expiresAt))))
    }

    func completeGooglePush(_ input: Operations.CompleteGooglePush.Input) async throws
        -> Operations.CompleteGooglePush.Output
    {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let result = try await google.completePushTokenize(
            session: input.path.id,
            credentials: GeneratedPaymentCredentials(
                opaquePaymentCard: body.opaquePaymentCard, googleOpaquePaymentCard: body.googleOpaquePaymentCard))
        return .ok(.init(body: .json(try .init(result))))
    }

    // MARK: - Reading

    func listGoogleTokens(_ input: Operations.ListGoogleTokens.Input) async throws -> Operations.ListGoogleTokens.Output {
        .ok(.init(body: .json(.init(tokens: try await google.listTokens().map(Components.Schemas.GoogleToken.init)))))
    }

    func isGoogleTokenized(_ input: Operations.IsGoogleTokenized.Input) async throws
        -> Operations.IsGoogleTokenized.Output
    {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let tokenized = await google.isTokenized(
            lastDigits: body.lastDigits, network: try .init(body.network),
            tokenServiceProvider: try .init(body.tokenServiceProvider))
        return .ok(.init(body: .json(.init(isTokenized: tokenized))))
    }

    func getGoogleTokenStatus(_ input: Operations.GetGoogleTokenStatus.Input) async throws
        -> Operations.GetGoogleTokenStatus.Output
    {
        .ok(.init(body: .json(try await token(input.path.tsp, input.path.issuerTokenId))))
    }

    func requestGoogleTokenDeletion(_ input: Operations.RequestGoogleTokenDeletion.Input) async throws
        -> Operations.RequestGoogleTokenDeletion.Output
    {
        try await google.requestDeleteToken(
            tokenServiceProvider: try .init(input.path.tsp), issuerTokenID: input.path.issuerTokenId)
        return .noContent(.init())
    }

    // MARK: - The yellow path

    func resumeGoogleTokenize(_ input: Operations.ResumeGoogleTokenize.Input) async throws
        -> Operations.ResumeGoogleTokenize.Output
    {
        let verification = try await google.tokenize(
            tokenServiceProvider: try .init(input.path.tsp), issuerTokenID: input.path.issuerTokenId)
        return .ok(
            .init(
                body: .json(
                    .init(
                        issuerTokenId: verification.issuerTokenID, tokenState: try .init(verification.tokenState),
                        methods: try verification.methods.map(
                            Components.Schemas.GoogleIdentityVerification.MethodsPayloadPayload.init)
                    ))))
    }

    func requestGoogleOneTimeCode(_ input: Operations.RequestGoogleOneTimeCode.Input) async throws
        -> Operations.RequestGoogleOneTimeCode.Output
    {
        let otp = try await google.requestOTP(
            tokenServiceProvider: try .init(input.path.tsp), issuerTokenID: input.path.issuerTokenId)
        return .ok(.init(body: .json(.init(code: otp.code, expiresAt: otp.expiresAt))))
    }

    func verifyGoogleOneTimeCode(_ input: Operations.VerifyGoogleOneTimeCode.Input) async throws
        -> Operations.VerifyGoogleOneTimeCode.Output
    {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        _ = try await google.submitOTP(
            tokenServiceProvider: try .init(input.path.tsp), issuerTokenID: input.path.issuerTokenId, code: body.code)
        return .ok(.init(body: .json(try await token(input.path.tsp, input.path.issuerTokenId))))
    }

    func startGoogleAppToApp(_ input: Operations.StartGoogleAppToApp.Input) async throws
        -> Operations.StartGoogleAppToApp.Output
    {
        let intent = try await google.startAppToApp(
            tokenServiceProvider: try .init(input.path.tsp), issuerTokenID: input.path.issuerTokenId)
        return .ok(
            .init(
                body: .json(
                    .init(
                        packageName: intent.packageName, action: intent.action, extraText: intent.extraText,
                        callingPackage: intent.callingPackage))))
    }

    func completeGoogleAppToApp(_ input: Operations.CompleteGoogleAppToApp.Input) async throws
        -> Operations.CompleteGoogleAppToApp.Output
    {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let response: GoogleStepUpResponse
        switch body.stepUpResponse {
        case .approved: response = .approved(activationData: body.activationData)
        case .declined: response = .declined
        case .failure: response = .failure
        }
        if body.stepUpResponse != .approved, body.activationData != nil {
            throw ProvisioError(.sandboxInvalidRequest, "activation_data goes only with an approved step_up_response.")
        }
        let outcome = try await google.completeAppToApp(
            tokenServiceProvider: try .init(input.path.tsp), issuerTokenID: input.path.issuerTokenId, response: response)
        return .ok(
            .init(
                body: .json(
                    .init(
                        issuerTokenId: outcome.issuerTokenID, tokenState: try .init(outcome.tokenState),
                        reason: outcome.reason))))
    }

    // MARK: - Helpers

    private func wallet() async throws -> Components.Schemas.GoogleWallet {
        .init(
            stableHardwareId: google.stableHardwareID, activeWalletId: google.activeWalletID, environment: .sandbox,
            encryptionKeys: google.googleKey?.publicKeys.map(\.armored) ?? [],
            issuerKeyFingerprints: await google.issuerKeyFingerprints())
    }

    private func token(_ tsp: Components.Schemas.GoogleTokenServiceProvider, _ issuerTokenID: String) async throws
        -> Components.Schemas.GoogleToken
    {
        let provider = try GoogleTokenServiceProvider(tsp)
        // getTokenStatus's 15003 for a token of another provider or none.
        _ = try await google.getTokenStatus(tokenServiceProvider: provider, issuerTokenID: issuerTokenID)
        guard let token = await google.listTokens().first(where: { $0.issuerTokenID == issuerTokenID }) else {
            throw ProvisioError(.sandboxGoogleTokenNotFound, "TAP_AND_PAY_TOKEN_NOT_FOUND (15003): no such token.")
        }
        return try .init(token)
    }
}
