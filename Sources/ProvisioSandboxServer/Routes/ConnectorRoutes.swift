import Hummingbird
import Logging
import ProvisioCore
import ProvisioSandbox

/// The card network's connector API, what the issuer's Provisio calls: lifecycle changes the
/// issuer decided (suspend, resume, delete) and activation after the issuer verified the
/// cardholder itself (customer service). The network changes the token and Wallet's pass and
/// answers with the token; it reports nothing back, since the issuer asked.
struct ConnectorRoutes {
    let network: SandboxNetworkTokenService

    func register(on group: RouterGroup<SandboxRequestContext>) {
        let network = self.network
        group.post("tokens/:ref/lifecycle") { request, context -> Response in
            let ref = try SandboxRequestParameters.path("ref", in: context)
            let body = try await SandboxJSON.decode(SandboxWire.LifecycleRequest.self, from: request, context: context)
            context.logger.info(
                "issuer lifecycle action",
                metadata: ["ref": "\(ref)", "action": "\(body.action.rawValue)", "reason_code": "\(body.reasonCode ?? "none")"])
            let token = try await network.applyIssuerAction(body.action, networkTokenRef: ref)
            return try SandboxJSON.response(SandboxWire.Token(token))
        }
        group.post("tokens/:ref/activation") { request, context -> Response in
            let ref = try SandboxRequestParameters.path("ref", in: context)
            let body = try await SandboxJSON.decode(SandboxWire.ActivationRequest.self, from: request, context: context)
            context.logger.info(
                "issuer activation",
                metadata: ["ref": "\(ref)", "method": "\(body.method.rawValue)", "reason_code": "\(body.reasonCode ?? "none")"])
            let token: NetworkToken
            switch body.method {
            case .customerService: token = try await network.activateByCustomerService(networkTokenRef: ref)
            }
            return try SandboxJSON.response(SandboxWire.Token(token))
        }
    }
}
