import Crypto
import Foundation
import ProvisioConnectorAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import ProvisioSandboxServer
import Testing

@testable import ProvisioServer

/// The sandbox network's side of a replaced card (`POST /network/v1/tokens/{ref}/funding-account`):
/// it opens the JWE with its own key, funds the token by the new card and has the wallet show the
/// new last four digits on the same pass; a JWE it cannot open or read, or to another key, changes
/// nothing and is `sandbox_invalid_request`. Over loopback HTTP, every answer checked against the
/// connector document.
@Suite(.timeLimit(.minutes(10))) struct SandboxFundingAccountTests {
    static let newPAN = "4000056655665556"

    static func jwe(to key: P256.KeyAgreement.PublicKey, _ json: String) throws -> String {
        try JWEEncrypter(recipient: key).encrypt(Data(json.utf8), contentType: "application/json")
    }

    @Test func theNetworkOpensTheNewCardWithItsKeyAndTheWalletKeepsThePass() async throws {
        try await TestServer.run(.sqlite) { server in
            try await SandboxHTTPHarness.run(server) { h in
                let outcome = try await h.add().outcome
                let (ref, serial) = (outcome.networkTokenRef, try #require(outcome.pass?.serialNumber))
                let before = try await h.client.pass(serialNumber: serial)
                let key = server.networkKey.publicKey
                let path = "/network/v1/tokens/\(ref)/funding-account"

                // Refusals first: none changes the token.
                for (jwe, word) in [
                    (try Self.jwe(to: P256.KeyAgreement.PrivateKey().publicKey, Self.plaintext(Self.newPAN)), "not a JWE"),
                    ("not.a.jwe.at.all", "not a JWE"),
                    (try Self.jwe(to: key, #"{"fpan": "\#(Self.newPAN)", "expiry_month": 9}"#), "exactly"),
                    (try Self.jwe(to: key, Self.plaintext("4111111111111112")), "invalid_pan"),
                ] {
                    let refused = try await h.raw(.post, path, json: ["encrypted_funding_account": .string(jwe)])
                    #expect(refused.status == 400 && refused.sandboxErrorBody?.code == "sandbox_invalid_request")
                    #expect(refused.sandboxErrorBody?.message.contains(word) == true, "\(refused.text)")
                }
                let unknown = try await h.raw(
                    .post, "/network/v1/tokens/sbx_ntr_nope/funding-account",
                    json: ["encrypted_funding_account": .string(try Self.jwe(to: key, Self.plaintext(Self.newPAN)))])
                #expect(unknown.status == 404 && unknown.sandboxErrorBody?.code == "sandbox_network_token_unknown")
                #expect(await h.world.network.token(networkTokenRef: ref)?.fundingPrimaryAccountNumber.last4 == "1111")

                let token = try await h.connector.replaceFundingAccount(
                    path: .init(ref: ref),
                    body: .json(
                        .init(
                            encryptedFundingAccount: try Self.jwe(to: key, Self.plaintext(Self.newPAN)),
                            reasonCode: "card_replaced"))
                ).ok.body.json
                #expect(token.networkTokenRef == ref && token.state == .active)
                let funded = try #require(await h.world.network.token(networkTokenRef: ref))
                #expect(funded.fundingPrimaryAccountNumber.unmaskedDigits == Self.newPAN)
                #expect(funded.fundingExpiry.slashed == "09/31")
                let after = try await h.client.pass(serialNumber: serial)
                #expect(after.primaryAccountNumberSuffix == "5556")
                #expect(after.deviceAccountIdentifier == before.deviceAccountIdentifier)
                #expect(after.activationState == before.activationState)
                // Logged once opened (the unknown token's too); the number is in no answer and no log line.
                #expect(server.logs.count(containing: "issuer funding account replaced") == 2)
                #expect(!server.logs.text.contains(Self.newPAN))
                #expect(!h.answers.all.contains { $0.text.contains(Self.newPAN) })
            }
        }
    }

    static func plaintext(_ pan: String) -> String {
        #"{"fpan": "\#(pan)", "expiry_month": 9, "expiry_year": 2031}"#
    }
}
