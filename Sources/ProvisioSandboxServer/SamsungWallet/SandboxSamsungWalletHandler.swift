import Foundation
import Logging
import OpenAPIRuntime
import ProvisioCore
import ProvisioHTTP
import ProvisioSandbox
import ProvisioSandboxSamsungWalletAPI

/// The sandbox's Samsung Wallet over HTTP (`sandbox-samsung-wallet-openapi.yaml`): what the
/// issuer's Android app asks of the Samsung Pay SDK and what the cardholder does in Samsung
/// Wallet, played by a test, the demo or an Android team's own tooling. It serves the protocol
/// generated from that document, next to the sandbox's own API and under the same key. Each
/// operation maps the wire to one call of `SandboxSamsungWallet` (through `SamsungSDK` for the
/// SDK's calls on a device), which holds the behaviour; the operations live in one extension per
/// tag (`+SDK`, `+Cardholder`, `+Scenario`).
struct SandboxSamsungWalletHandler: APIProtocol {
    let world: SandboxHTTPWorld
    let logger: Logger

    var samsung: SandboxSamsungWallet { world.samsung }

    /// The document served at `/openapi/samsung-wallet.yaml`.
    static let openAPIDocument = BundledDocument.text("sandbox-samsung-wallet-openapi", extension: "yaml", in: .module)

    /// The words each body field with a vocabulary takes, as the document lists them.
    static let vocabulary: [String: [String]] = [
        "service_type": Components.Schemas.ServiceType.allCases.map(\.rawValue),
        "card_type": Components.Schemas.CardType.allCases.map(\.rawValue),
        "tokenization_provider": Components.Schemas.TokenizationProvider.allCases.map(\.rawValue),
        "status": Components.Schemas.PayStatus.allCases.map(\.rawValue),
        "error_reason": Components.Schemas.ErrorReason.allCases.map(\.rawValue),
        "result": Components.Schemas.StepUpResponse.allCases.map(\.rawValue),
    ]

    /// The operations with a `{device}` in their path, the only parameter that can be unreadable.
    static let deviceOperationIDs: Set<String> = [
        Operations.GetSamsungPayStatus.id, Operations.ActivateSamsungPay.id, Operations.GoToUpdatePage.id,
        Operations.GetWalletInfo.id, Operations.GetAllCards.id, Operations.AddCard.id, Operations.SetSamsungPayStatus.id,
    ]

    /// A `{device}` that is neither `phone` nor `watch`.
    static func deviceRefusal() -> ProvisioError {
        ProvisioError(
            .sandboxInvalidRequest,
            "The device must be one of \(Components.Schemas.Device.allCases.map(\.rawValue).joined(separator: ", ")).")
    }

    /// Adds Samsung Wallet's operations to the sandbox's routes.
    static func register(world: SandboxHTTPWorld, logger: Logger, on transport: some ServerTransport) throws {
        try Self(world: world, logger: logger).registerHandlers(on: transport, configuration: WireCoding.openAPIConfiguration)
    }

    func getSamsungWalletOpenAPIDocument(_ input: Operations.GetSamsungWalletOpenAPIDocument.Input) async throws
        -> Operations.GetSamsungWalletOpenAPIDocument.Output
    {
        .ok(.init(body: .yaml(HTTPBody(Self.openAPIDocument))))
    }

    /// The SDK on `device`, built with the app's `PartnerInfo` (`ERROR_PARTNER_INFO_INVALID`
    /// when the SDK would refuse it).
    func sdk(_ device: Components.Schemas.Device, _ partner: Components.Schemas.PartnerInfo) throws -> SamsungSDK {
        SamsungSDK(wallet: samsung, device: device, partner: try SamsungPartnerInfo(partner))
    }
}
