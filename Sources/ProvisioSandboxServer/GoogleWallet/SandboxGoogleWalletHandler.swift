import Foundation
import Logging
import OpenAPIRuntime
import ProvisioCore
import ProvisioHTTP
import ProvisioSandbox
import ProvisioSandboxGoogleWalletAPI

/// The sandbox's Google Wallet over HTTP (`sandbox-google-wallet-openapi.yaml`): what the
/// issuer's Android app asks of TapAndPay and what the cardholder does in Google Wallet, played
/// by a test, the demo or an Android team's own tooling. It serves the protocol generated from
/// that document, next to the sandbox's own API and under the same key.
struct SandboxGoogleWalletHandler: APIProtocol {
    let world: SandboxHTTPWorld
    let logger: Logger

    /// The document served at `/openapi/google-wallet.yaml`.
    static let openAPIDocument = BundledDocument.text("sandbox-google-wallet-openapi", extension: "yaml", in: .module)

    /// Adds Google Wallet's operations to the sandbox's routes.
    static func register(world: SandboxHTTPWorld, logger: Logger, on transport: some ServerTransport) throws {
        try Self(world: world, logger: logger).registerHandlers(on: transport, configuration: WireCoding.openAPIConfiguration)
    }

    func getGoogleWalletOpenAPIDocument(_ input: Operations.GetGoogleWalletOpenAPIDocument.Input) async throws
        -> Operations.GetGoogleWalletOpenAPIDocument.Output
    {
        .ok(.init(body: .yaml(HTTPBody(Self.openAPIDocument))))
    }
}
