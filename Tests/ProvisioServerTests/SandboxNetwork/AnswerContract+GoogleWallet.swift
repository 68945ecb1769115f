import Foundation
import ProvisioSandboxGoogleWalletAPI

extension AnswerContract {
    /// `Sources/ProvisioSandboxServer/Resources/sandbox-google-wallet-openapi.yaml`, the sandbox's
    /// Google Wallet, parsed once for the run; error bodies read as its generated `Error` type.
    static let googleWallet: AnswerContract = {
        let url = OpenAPISpec.sourceURL.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("ProvisioSandboxServer/Resources/sandbox-google-wallet-openapi.yaml")
        do {
            return AnswerContract(spec: try OpenAPISpec(data: try Data(contentsOf: url))) { body in
                (try? APIJSON.decode(Components.Schemas._Error.self, from: body).error).map { ($0.code, $0.requestId) }
            }
        } catch {
            fatalError("sandbox-google-wallet-openapi.yaml cannot be read: \(error)")
        }
    }()
}
