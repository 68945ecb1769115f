import Foundation
import OpenAPIRuntime
import ProvisioCore
import ProvisioSandboxGoogleWalletAPI
import ProvisioWireClient

/// The sandbox's Google Wallet over HTTP (`sandbox-google-wallet-openapi.yaml`): what an issuer's
/// Android app asks of TapAndPay, and what the cardholder does in Google Wallet. Reached from
/// `SandboxClient.googleWallet`, on the same URL, connection pool and key; refusals are thrown
/// as the `ProvisioError` the sandbox answered, like every `SandboxClient` call.
public struct SandboxGoogleWalletClient: Sendable {
    public typealias Wallet = Components.Schemas.GoogleWallet
    public typealias CardNetwork = Components.Schemas.GoogleCardNetwork
    public typealias TokenServiceProvider = Components.Schemas.GoogleTokenServiceProvider
    public typealias TokenState = Components.Schemas.GoogleTokenState
    public typealias UserAddress = Components.Schemas.GoogleUserAddress
    public typealias PushTokenizeRequest = Components.Schemas.GooglePushTokenizeRequest
    public typealias PushTokenizeResult = Components.Schemas.GooglePushTokenizeResult
    public typealias InitiateProvisioning = Components.Schemas.GoogleInitiateProvisioning
    public typealias PushSessionRequest = Components.Schemas.GooglePushSessionRequest
    public typealias PushSession = Components.Schemas.GooglePushSession
    public typealias Credentials = Components.Schemas.GoogleGeneratedCredentials
    public typealias Token = Components.Schemas.GoogleToken
    public typealias IdentityVerification = Components.Schemas.GoogleIdentityVerification
    public typealias OneTimeCode = Components.Schemas.GoogleOneTimeCode
    public typealias AppToAppIntent = Components.Schemas.GoogleAppToAppIntent
    public typealias StepUpResponse = Components.Schemas.GoogleStepUpResponse.StepUpResponsePayload
    public typealias StepUpOutcome = Components.Schemas.GoogleStepUpOutcome

    private let client: Client?
    private let failures: WireClientFailures
    private let baseURL: String

    init(_ sandbox: SandboxClient) {
        self.baseURL = sandbox.baseURL
        self.client = sandbox.serverURL.map {
            Client(serverURL: $0, transport: sandbox.transport, middlewares: sandbox.middlewares)
        }
        self.failures = sandbox.failures
    }

    // MARK: - The wallet and the issuer's key

    /// The phone's ids, Google's encryption keys (armoured, for Provisio's Google Pay settings)
    /// and the issuer keys Google accepts.
    public func wallet() async throws -> Wallet {
        try await call("Google Wallet") { try await $0.getGoogleWallet().ok.body.json }
    }

    /// The issuer registers its signing key (armoured) with Google.
    public func registerIssuerKey(armored: String) async throws -> Wallet {
        try await call("the issuer key's registration") {
            try await $0.registerGoogleIssuerKey(body: .json(.init(publicKey: armored))).ok.body.json
        }
    }

    // MARK: - Pushes

    /// The legacy `pushTokenize` with a `PushTokenizeRequest`.
    public func pushTokenize(_ request: PushTokenizeRequest) async throws -> PushTokenizeResult {
        try await call("the legacy push") { try await $0.pushTokenizeLegacy(body: .json(request)).ok.body.json }
    }

    /// The cardholder starts the add in Google Wallet: the intent the issuer's app is started with.
    public func beginBounceProvisioning() async throws -> InitiateProvisioning {
        try await call("the bounce") { try await $0.beginGoogleBounceProvisioning(body: .json(.init())).ok.body.json }
    }

    /// UPP's first half: Google's `GeneratePaymentCredentialsRequest` for the app's generator.
    public func beginPush(_ request: PushSessionRequest) async throws -> PushSession {
        try await call("the push") { try await $0.beginGooglePush(body: .json(request)).created.body.json }
    }

    /// UPP's second half: the generator's answer (Provisio's two opaque payment cards).
    public func completePush(sessionID: String, credentials: Credentials) async throws -> PushTokenizeResult {
        try await call("the push's credentials") {
            try await $0.completeGooglePush(path: .init(id: sessionID), body: .json(credentials)).ok.body.json
        }
    }

    // MARK: - Reading

    public func tokens() async throws -> [Token] {
        try await call("the tokens") { try await $0.listGoogleTokens().ok.body.json.tokens }
    }

    /// `getTokenStatus(tsp, issuerTokenId)`, with the token's other fields.
    public func token(_ tsp: TokenServiceProvider, issuerTokenID: String) async throws -> Token {
        try await call("the token") {
            try await $0.getGoogleTokenStatus(path: .init(tsp: tsp, issuerTokenId: issuerTokenID)).ok.body.json
        }
    }

    public func isTokenized(lastDigits: String, network: CardNetwork, tsp: TokenServiceProvider) async throws -> Bool {
        try await call("isTokenized") {
            try await $0.isGoogleTokenized(
                body: .json(.init(lastDigits: lastDigits, network: network, tokenServiceProvider: tsp))
            ).ok.body.json.isTokenized
        }
    }

    /// `requestDeleteToken`, confirmed by the cardholder.
    public func requestDeleteToken(_ tsp: TokenServiceProvider, issuerTokenID: String) async throws {
        try await call("the deletion") {
            _ = try await $0.requestGoogleTokenDeletion(path: .init(tsp: tsp, issuerTokenId: issuerTokenID)).noContent
        }
    }

    // MARK: - The yellow path

    /// `tokenize` on a token waiting for identity verification: the methods to pick from.
    public func tokenize(_ tsp: TokenServiceProvider, issuerTokenID: String) async throws -> IdentityVerification {
        try await call("tokenize") {
            try await $0.resumeGoogleTokenize(path: .init(tsp: tsp, issuerTokenId: issuerTokenID), body: .json(.init()))
                .ok.body.json
        }
    }

    public func requestOneTimeCode(_ tsp: TokenServiceProvider, issuerTokenID: String) async throws -> OneTimeCode {
        try await call("a one-time code") {
            try await $0.requestGoogleOneTimeCode(path: .init(tsp: tsp, issuerTokenId: issuerTokenID), body: .json(.init()))
                .ok.body.json
        }
    }

    public func verifyOneTimeCode(_ tsp: TokenServiceProvider, issuerTokenID: String, code: String) async throws -> Token {
        try await call("the one-time code's check") {
            try await $0.verifyGoogleOneTimeCode(
                path: .init(tsp: tsp, issuerTokenId: issuerTokenID), body: .json(.init(code: code))
            ).ok.body.json
        }
    }

    /// The intent Google Wallet starts the issuer's app with for app-to-app verification.
    public func startAppToApp(_ tsp: TokenServiceProvider, issuerTokenID: String) async throws -> AppToAppIntent {
        try await call("app-to-app") {
            try await $0.startGoogleAppToApp(path: .init(tsp: tsp, issuerTokenId: issuerTokenID), body: .json(.init()))
                .ok.body.json
        }
    }

    /// The app's `STEP_UP_RESPONSE`, with Provisio's activation data when approved.
    public func completeAppToApp(
        _ tsp: TokenServiceProvider, issuerTokenID: String, response: StepUpResponse, activationData: String? = nil
    ) async throws -> StepUpOutcome {
        try await call("the step-up response") {
            try await $0.completeGoogleAppToApp(
                path: .init(tsp: tsp, issuerTokenId: issuerTokenID),
                body: .json(.init(stepUpResponse: response, activationData: activationData))
            ).ok.body.json
        }
    }

    private func call<Answer: Sendable>(_ what: String, _ body: (Client) async throws -> Answer) async throws -> Answer {
        guard let client else {
            throw ProvisioError(.sandboxUnreachable, "The sandbox URL \(baseURL) is not a URL.")
        }
        return try await WireCall.perform(what, failures: failures) { try await body(client) }
    }
}

extension SandboxClient {
    /// Google Wallet on the sandbox's Android phone.
    public var googleWallet: SandboxGoogleWalletClient { SandboxGoogleWalletClient(self) }
}
