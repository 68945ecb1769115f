import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxAPI

/// The scenario knob: what the network and Wallet say about the next provisioning requests,
/// for every card or for cards ending in given digits — green, yellow or red on demand.
extension SandboxAPIHandler {
    func setRisk(_ input: Operations.SetRisk.Input) async throws -> Operations.SetRisk.Output {
        guard case .json(let risk) = input.body else { throw Self.unreadableBody() }
        // Scores outside 1…5 are refused here, with the code the network would raise later.
        try risk.assessment.validate()
        if let last4 = risk.last4 {
            guard last4.utf8.count == 4, last4.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw ProvisioError(.sandboxInvalidRequest, "The field 'last4' must be the card's last four digits.")
            }
            await world.network.setRisk(risk.assessment, forLast4: last4)
        } else {
            await world.network.setDefaultRisk(risk.assessment)
        }
        return .ok(.init(body: .json(risk)))
    }
}
