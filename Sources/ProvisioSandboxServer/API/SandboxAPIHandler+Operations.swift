import Foundation
import OpenAPIRuntime
import ProvisioHTTP
import ProvisioSandbox
import ProvisioSandboxAPI

/// What is public: the document itself and the sandbox CA's root.
extension SandboxAPIHandler {
    /// The document served at `/openapi.yaml`: the same bytes the wire code is generated from.
    static let openAPIDocument = BundledDocument.text("sandbox-openapi", extension: "yaml", in: .module)

    func getOpenAPIDocument(_ input: Operations.GetOpenAPIDocument.Input) async throws
        -> Operations.GetOpenAPIDocument.Output
    {
        .ok(.init(body: .yaml(HTTPBody(Self.openAPIDocument))))
    }

    /// What an operator gives Provisio (`--trust-anchor`) so it accepts the devices' chains.
    func getRootCertificate(_ input: Operations.GetRootCertificate.Input) async throws
        -> Operations.GetRootCertificate.Output
    {
        let pem = try SandboxCertificateAuthority.pem(world.certificateAuthority.root)
        return .ok(.init(body: .plainText(HTTPBody(pem.hasSuffix("\n") ? pem : pem + "\n"))))
    }
}
