import Hummingbird
import ProvisioCore
import ProvisioSandbox

/// The wallet's pass library, as the issuer app sees it through PassKit: every pass, one
/// device's, one card's, or one pass by serial number.
struct PassRoutes {
    let wallet: SandboxWallet

    func register(on group: RouterGroup<SandboxRequestContext>) {
        let wallet = self.wallet
        group.get("passes") { request, _ -> Response in
            let query = try SandboxRequestParameters.query(of: request, allowed: ["device", "primary_account_identifier"])
            let kind = try query["device"].map(SandboxRequestParameters.deviceKind)
            let passes: [SandboxPass]
            if let card = query["primary_account_identifier"] {
                passes = await wallet.passes(primaryAccountIdentifier: card, on: kind)
            } else {
                passes = await wallet.passes(on: kind)
            }
            return try SandboxJSON.response(SandboxWire.PassList(passes))
        }
        group.get("passes/:serial") { _, context -> Response in
            let serial = try SandboxRequestParameters.path("serial", in: context)
            guard let pass = await wallet.pass(serialNumber: serial) else {
                throw ProvisioError(.sandboxPassUnknown, "No pass has this serial number.")
            }
            return try SandboxJSON.response(SandboxWire.Pass(pass))
        }
    }
}
