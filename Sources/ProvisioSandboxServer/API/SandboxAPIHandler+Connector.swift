import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxAPI

/// The card network's connector API, what the issuer's Provisio calls: lifecycle changes the
/// issuer decided (suspend, resume, delete) and activation after the issuer verified the
/// cardholder itself (customer service). The network changes the token and Wallet's pass and
/// answers with the token; it reports nothing back, since the issuer asked.
extension SandboxAPIHandler {
    func applyLifecycleAction(_ input: Operations.ApplyLifecycleAction.Input) async throws
        -> Operations.ApplyLifecycleAction.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let action = try IssuerLifecycleAction(spelling: body.action)
        logger.info(
            "issuer lifecycle action",
            metadata: ["ref": "\(input.path.ref)", "action": "\(action.rawValue)", "reason_code": "\(body.reasonCode ?? "none")"])
        let token = try await world.network.applyIssuerAction(action, networkTokenRef: input.path.ref)
        return .ok(.init(body: .json(try .init(SandboxWire.Token(token)))))
    }

    func updateCardDetails(_ input: Operations.UpdateCardDetails.Input) async throws -> Operations.UpdateCardDetails.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let expiry = try CardExpiry.optional(month: body.expiryMonth, year: body.expiryYear)
        let details = CardDetails(expiry: expiry, cardholderName: body.cardholderName, cardArtURL: body.cardArtUrl)
        logger.info(
            "issuer card details", metadata: ["ref": "\(input.path.ref)", "expiry": "\(expiry?.slashed ?? "unchanged")"])
        let token = try await world.network.updateCardDetails(details, networkTokenRef: input.path.ref)
        return .ok(.init(body: .json(try .init(SandboxWire.Token(token)))))
    }

    func activateToken(_ input: Operations.ActivateToken.Input) async throws -> Operations.ActivateToken.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        logger.info(
            "issuer activation",
            metadata: [
                "ref": "\(input.path.ref)", "method": "\(body.method.rawValue)", "reason_code": "\(body.reasonCode ?? "none")",
            ])
        let token: NetworkToken
        switch body.method {
        case .customerService: token = try await world.network.activateByCustomerService(networkTokenRef: input.path.ref)
        }
        return .ok(.init(body: .json(try .init(SandboxWire.Token(token)))))
    }
}
