import Foundation
import ProvisioSandboxAPI

extension AnswerContract {
    /// `Sources/ProvisioSandboxServer/Resources/sandbox-openapi.yaml`, parsed once for the run:
    /// the sandbox's answers get the same checks as Provisio's, error bodies read as the
    /// sandbox's generated `Error` type.
    static let sandbox: AnswerContract = {
        let url = OpenAPISpec.sourceURL.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("ProvisioSandboxServer/Resources/sandbox-openapi.yaml")
        do {
            return AnswerContract(spec: try OpenAPISpec(data: try Data(contentsOf: url))) { body in
                (try? APIJSON.decode(Components.Schemas._Error.self, from: body).error).map { ($0.code, $0.requestId) }
            }
        } catch {
            fatalError("sandbox-openapi.yaml cannot be read: \(error)")
        }
    }()
}
