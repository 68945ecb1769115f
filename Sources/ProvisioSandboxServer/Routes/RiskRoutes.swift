import Hummingbird
import ProvisioCore
import ProvisioSandbox

/// The scenario knob: what the network and Wallet say about the next provisioning requests,
/// for every card or for cards ending in given digits — green, yellow or red on demand.
struct RiskRoutes {
    let network: SandboxNetworkTokenService

    func register(on group: RouterGroup<SandboxRequestContext>) {
        let network = self.network
        group.put("risk") { request, context -> Response in
            let body = try await SandboxJSON.decode(SandboxWire.Risk.self, from: request, context: context)
            // Scores outside 1…5 are refused here, with the code the network would raise later.
            try body.assessment.validate()
            if let last4 = body.last4 {
                guard last4.utf8.count == 4, last4.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                    throw SandboxJSON.invalid("The field 'last4' must be the card's last four digits.")
                }
                await network.setRisk(body.assessment, forLast4: last4)
            } else {
                await network.setDefaultRisk(body.assessment)
            }
            return try SandboxJSON.response(body)
        }
    }
}
