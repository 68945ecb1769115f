import Foundation
import ProvisioCore
import Testing

@testable import ProvisioServer

/// The MDES listener speaks mutual TLS only: no client certificate, or one from another CA, and
/// the handshake fails; the main listener serves none of its paths; the flags go together.
@Suite struct MDESListenerTransportTests {
    @Test func onlyAClientCertificateFromTheConfiguredCAGetsThrough() async throws {
        try await MDESListenerHarness.run(.sqlite) { mdes in
            let path = "/mdes/\(mdes.tenantID)/issuerServices/1/0/notifySuspiciousEvents"
            let body = Data(#"{"requestId":"r1"}"#.utf8)
            let pki = MDESListenerHarness.pki
            let admitted = await MDESListenerHarness.post(port: mdes.port, path: path, bytes: body, presenting: pki.client)
            #expect(admitted?.status == 400, "a request answered in MDES's shape: \(String(describing: admitted?.text))")
            #expect(admitted?.errorCode == "MISSING_REQUIRED_FIELD")
            #expect(await MDESListenerHarness.post(port: mdes.port, path: path, bytes: body, presenting: nil) == nil)
            #expect(
                await MDESListenerHarness.post(port: mdes.port, path: path, bytes: body, presenting: pki.strangerClient) == nil)

            // The main listener has no such route.
            let main = try await mdes.server.raw.send(.post, path, token: nil, body: body)
            #expect(main.status == 404)
        }
    }

    @Test func thePortNeedsAllThreeFilesAndTheFilesNeedThePort() throws {
        var configuration = ServerConfiguration()
        configuration.mdesPort = 8443
        configuration.mdesTLSCertificateFile = "/etc/mdes.pem"
        configuration.mdesTLSKeyFile = "/etc/mdes-key.pem"
        let missingCA = #expect(throws: ProvisioError.self) { try configuration.validateTransport() }
        #expect(missingCA?.code == .invalidParameter)
        #expect(missingCA?.message.contains("--mdes-client-ca") == true)
        configuration.mdesClientCAFile = "/etc/mastercard-ca.pem"
        #expect(try configuration.mdesListener()?.port == 8443)

        var filesOnly = ServerConfiguration()
        try filesOnly.apply(environment: ["PROVISIO_MDES_TLS_CERT": "/etc/mdes.pem"])
        #expect(throws: ProvisioError.self) { try filesOnly.validateTransport() }
        try filesOnly.apply(environment: [
            "PROVISIO_MDES_PORT": "9443", "PROVISIO_MDES_TLS_KEY": "/k.pem", "PROVISIO_MDES_CLIENT_CA": "/ca.pem",
        ])
        #expect(
            try filesOnly.mdesListener()
                == MDESListenerConfiguration(
                    port: 9443, certificateFile: "/etc/mdes.pem", keyFile: "/k.pem", clientCAFile: "/ca.pem"))
    }
}
