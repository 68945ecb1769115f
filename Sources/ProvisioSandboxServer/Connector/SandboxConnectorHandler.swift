import Logging
import OpenAPIRuntime
import ProvisioCore
import ProvisioHTTP
import ProvisioSandbox
import ProvisioSandboxConnectorAPI

/// The card network's connector API in the Provisio dialect (`network-connector-openapi.yaml`),
/// what the issuer's Provisio calls: lifecycle changes the issuer decided (suspend, resume,
/// delete), a reissued card's details, and activation after the issuer verified the cardholder
/// itself (customer service). The network changes the token and Wallet's pass and answers with
/// the token; it reports nothing back, since the issuer asked. It serves the protocol generated
/// from that document, next to the sandbox's own API and under the same key.
struct SandboxConnectorHandler: APIProtocol {
    let world: SandboxHTTPWorld
    let logger: Logger

    /// The words each body field with a vocabulary takes, as the document lists them.
    static let vocabulary: [String: [String]] = [
        "action": Components.Schemas.LifecycleRequest.ActionPayload.allCases.map(\.rawValue),
        "method": Components.Schemas.ActivationRequest.MethodPayload.allCases.map(\.rawValue),
    ]

    /// Adds the connector's operations to the sandbox's routes.
    static func register(world: SandboxHTTPWorld, logger: Logger, on transport: some ServerTransport) throws {
        try Self(world: world, logger: logger).registerHandlers(on: transport, configuration: WireCoding.openAPIConfiguration)
    }

    func applyLifecycleAction(_ input: Operations.ApplyLifecycleAction.Input) async throws
        -> Operations.ApplyLifecycleAction.Output
    {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let action = IssuerLifecycleAction(body.action)
        logger.info(
            "issuer lifecycle action",
            metadata: ["ref": "\(input.path.ref)", "action": "\(action.rawValue)", "reason_code": "\(body.reasonCode ?? "none")"])
        let token = try await world.network.applyIssuerAction(action, networkTokenRef: input.path.ref)
        return .ok(.init(body: .json(.init(token))))
    }

    func updateCardDetails(_ input: Operations.UpdateCardDetails.Input) async throws -> Operations.UpdateCardDetails.Output {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let expiry = try CardExpiry.optional(month: body.expiryMonth, year: body.expiryYear)
        let details = CardDetails(
            expiry: expiry, cardholderName: body.cardholderName, cardArtURL: body.cardArtUrl, productTitle: body.productTitle)
        let profile = body.cardProfile.map(SandboxCardProfile.init)
        logger.info(
            "issuer card details",
            metadata: [
                "ref": "\(input.path.ref)", "expiry": "\(expiry?.slashed ?? "unchanged")",
                "product_id": "\(profile?.productID ?? "unchanged")",
            ])
        var token = try await world.network.updateCardDetails(details, networkTokenRef: input.path.ref)
        // A product change: the token and its pass take the whole new profile (name, art, apps).
        if let profile { token = try await world.network.updateCardProfile(profile, networkTokenRef: input.path.ref) }
        return .ok(.init(body: .json(.init(token))))
    }

    /// The issuer replaced the card behind the token with a new number: the network opens it with
    /// its key, funds the token by the new card and has the wallet show its last four digits
    /// (the pass stays, with its device account identifier). The log names the token only.
    func replaceFundingAccount(_ input: Operations.ReplaceFundingAccount.Input) async throws
        -> Operations.ReplaceFundingAccount.Output
    {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let account = try SandboxFundingAccount(opening: body.encryptedFundingAccount, with: world.network.opcKey)
        logger.info(
            "issuer funding account replaced",
            metadata: ["ref": "\(input.path.ref)", "reason_code": "\(body.reasonCode ?? "none")"])
        let token = try await world.network.updateCardDetails(
            CardDetails(expiry: account.expiry), newPrimaryAccountNumber: account.primaryAccountNumber,
            networkTokenRef: input.path.ref)
        return .ok(.init(body: .json(.init(token))))
    }

    func activateToken(_ input: Operations.ActivateToken.Input) async throws -> Operations.ActivateToken.Output {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        logger.info(
            "issuer activation",
            metadata: [
                "ref": "\(input.path.ref)", "method": "\(body.method.rawValue)", "reason_code": "\(body.reasonCode ?? "none")",
            ])
        let token: NetworkToken
        switch body.method {
        case .customerService, .appAuthentication:
            token = try await world.network.activateByIssuer(networkTokenRef: input.path.ref)
        }
        return .ok(.init(body: .json(.init(token))))
    }
}
