import Hummingbird
import ProvisioCore
import ProvisioSandbox

/// `GET /sandbox/v1/ca/root.pem`: the root an operator gives Provisio (`--trust-anchor`) so it
/// accepts the sandbox devices' certificate chains. A public certificate, so served without a key.
struct CertificateAuthorityRoutes {
    let certificateAuthority: SandboxCertificateAuthority

    func register(on router: Router<SandboxRequestContext>) {
        let certificateAuthority = self.certificateAuthority
        router.get("sandbox/v1/ca/root.pem") { _, _ -> Response in
            let pem = try SandboxCertificateAuthority.pem(certificateAuthority.root)
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            let text = pem.hasSuffix("\n") ? pem : pem + "\n"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }
}
