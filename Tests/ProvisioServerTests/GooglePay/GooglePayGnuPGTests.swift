import Foundation
import ProvisioAPI
import ProvisioOpenPGP
import Testing

@testable import ProvisioServer

/// GnuPG, standing in for Google, opens the Google OPC Provisio answers: decrypted with the
/// Google key, signed by the issuer key `GET /v1/settings/google-pay` serves, with SHA-384 and
/// AES-256 as Google asks, and holding Google's JSON for this session.
@Suite(.serialized) struct GooglePayGnuPGTests {
    @Test(arguments: TestEngine.available)
    func gnupgOpensTheGoogleOPC(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let card = try await server.makeCard(apiKey: apiKey, pan: GooglePayUPPTests.pan)
            let google = try await GooglePayTestKeys.shared()
            let issuer = try await api.setGooglePaySettings(
                body: .json(.init(googleEncryptionKeys: [google.second.publicKey.armored]))
            ).ok.body.json.issuerSigningKey
            let push = try await api.provisionGooglePay(
                path: .init(id: card.id), body: .json(.init(credentialsRequest: .init(serverSessionId: "gpg-session-1")))
            ).ok.body.json
            let opc = try #require(push.googleOpaquePaymentCard)
            let message = try #require(Data(base64Encoded: opc))

            try await GnuPGHome.with { gpg in
                try await gpg.importKey(google.second.armored)
                try await gpg.importKey(issuer.armored)
                let input = gpg.path("opc.gpg")
                let output = gpg.path("opc.json")
                try message.write(to: URL(fileURLWithPath: input))
                let status = try await gpg.run(["--status-fd", "1", "--output", output, "--decrypt", input]).standardOutput
                #expect(status.contains("[GNUPG:] DECRYPTION_OKAY"))
                #expect(status.contains("[GNUPG:] GOODMDC"))
                #expect(status.contains("[GNUPG:] GOODSIG \(issuer.fingerprint.suffix(16))"))
                #expect(status.contains("[GNUPG:] VALIDSIG"))
                // VALIDSIG's tenth field is the primary key's fingerprint; its eighth the digest (9, SHA-384).
                let valid = status.split(separator: "\n").first { $0.hasPrefix("[GNUPG:] VALIDSIG ") }?.split(separator: " ")
                #expect(valid?.count ?? 0 > 11 && valid?[9] == "9" && valid?[11] == Substring(issuer.fingerprint))
                #expect(status.contains("[GNUPG:] DECRYPTION_INFO 2 9"), "AES-256")
                let opened = try GoogleOpaquePaymentCard(json: try Data(contentsOf: URL(fileURLWithPath: output)))
                #expect(opened.serverSessionID == "gpg-session-1" && opened.accountNumber == GooglePayUPPTests.pan)
                #expect(opened.expiryMonth == 12 && opened.expiryYear == 30)
            }
            GooglePayUPPTests.expectNoPAN(server)
        }
    }
}
