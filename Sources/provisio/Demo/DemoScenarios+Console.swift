import Foundation
import ProvisioCore
import ProvisioSandbox

/// Scenario 9: a support call through the console on the embedded server, as an agent's
/// browser would make it.
extension DemoScenarios {
    func supportConsole() async throws {
        guard let console = world.console else {
            transcript.emit(
                "  – the console's operators are made on the server (`provisio operators create`); skipped with --server")
            return
        }
        let (card, _, result) = try await addNewCard(
            customer: "grace", pan: "4242424242424242", name: "Grace Support", title: "Demo Visa Classic",
            risk: SandboxClient.Risk(deviceScore: 2, accountScore: 5, walletRecommendation: .approve))
        guard case .success(let outcome) = result, let pass = outcome.pass else {
            await transcript.fail("the add failed: \(Self.describe(result))")
            return
        }
        await transcript.check(
            pass.activationState == .requiresActivation,
            "grace's card is in Wallet but needs verification; she calls the bank")
        let tokenID = try await world.issuerTokenID(of: outcome, cardID: card.id)

        let signedIn = try await console.signIn()
        await transcript.check(
            signedIn.status == 303 && signedIn.location == "/console",
            "the agent signs in to the console (\(console.access.url)/console) as \(console.access.email)")
        let found = try await console.get("/console/tokens?last4=\(card.last4)")
        await transcript.check(
            found.html.contains(tokenID) && found.html.contains("pending_verification"),
            "searching tokens by the last 4 digits \(card.last4) finds hers, pending verification")
        let tokenPage = try await console.get("/console/tokens/\(tokenID)")
        let acted = try await console.post(
            "/console/tokens/\(tokenID)/actions",
            [
                ("csrf", DemoConsole.csrf(in: tokenPage) ?? ""), ("action", "activate"),
                ("reason", "Caller verified with date of birth and last payment"),
            ])
        let after = try await console.get(acted.location ?? "/console/tokens/\(tokenID)")
        await transcript.check(
            acted.status == 303 && after.html.contains(#"id="token-state">active<"#),
            "the agent activates it by customer service with a reason; the page shows it active")
        await transcript.check(
            after.html.contains("token.activated") && after.html.contains("Caller verified with date of birth"),
            "the audit entry names the agent and their reason")
        let onDevice = try await world.pass(serialNumber: pass.serialNumber)
        await transcript.check(onDevice?.activationState == .activated, "the network activated the pass on the iPhone")
        let event = await world.receiver.waitFor("token.activated", tokenID: tokenID)
        await transcript.check(event != nil, "webhook token.activated received")
        await transcript.note(
            "Console: \(console.access.url)/console — tenant \(console.access.tenantID), \(console.access.email) / "
                + "\(console.access.password) "
                + "(`provisio demo --keep-running` keeps it up)")
    }
}
