import Foundation
import ProvisioConnectorAPI

extension AnswerContract {
    /// `Sources/ProvisioNetworkConnector/Provisio/network-connector-openapi.yaml`, the Provisio
    /// dialect the sandbox's network serves, parsed once for the run; error bodies read as its
    /// generated `Error` type.
    static let connector: AnswerContract = {
        let url = OpenAPISpec.sourceURL.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("ProvisioNetworkConnector/Provisio/network-connector-openapi.yaml")
        do {
            return AnswerContract(spec: try OpenAPISpec(data: try Data(contentsOf: url))) { body in
                (try? APIJSON.decode(Components.Schemas._Error.self, from: body).error).map { ($0.code, $0.requestId) }
            }
        } catch {
            fatalError("network-connector-openapi.yaml cannot be read: \(error)")
        }
    }()
}
