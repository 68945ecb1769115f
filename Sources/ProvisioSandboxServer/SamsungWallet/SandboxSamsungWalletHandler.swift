import Foundation
import Logging
import OpenAPIRuntime
import ProvisioCore
import ProvisioHTTP
import ProvisioSandbox
import ProvisioSandboxSamsungWalletAPI

/// The sandbox's Samsung Wallet over HTTP (`sandbox-samsung-wallet-openapi.yaml`): what the
/// issuer's Android app asks of the Samsung Pay SDK and what the cardholder does in Samsung Wallet, played
/// by a test, the demo or an Android team's own tooling. It serves the protocol generated from
/// that document, next to the sandbox's own API and under the same key.
struct SandboxSamsungWalletHandler: APIProtocol {
    let world: SandboxHTTPWorld
    let logger: Logger

    /// The document served at `/openapi/samsung-wallet.yaml`.
    static let openAPIDocument = BundledDocument.text("sandbox-samsung-wallet-openapi", extension: "yaml", in: .module)

    /// Adds Samsung Wallet's operations to the sandbox's routes.
    static func register(world: SandboxHTTPWorld, logger: Logger, on transport: some ServerTransport) throws {
        try Self(world: world, logger: logger).registerHandlers(on: transport, configuration: WireCoding.openAPIConfiguration)
    }

    func getSamsungWalletOpenAPIDocument(_ input: Operations.GetSamsungWalletOpenAPIDocument.Input) async throws
        -> Operations.GetSamsungWalletOpenAPIDocument.Output
    {
        .ok(.init(body: .yaml(HTTPBody(Self.openAPIDocument))))
    }
}
