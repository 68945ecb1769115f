import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// Every token shows its wallet and device as support reads them, whichever wallet made it:
/// a Google Pay token pushed through the sandbox's Google Wallet, an Apple Pay one and Samsung
/// Pay ones on a phone and a Galaxy Watch, all for the same card, are found by the card's last
/// four digits, in the console and the API.
@Suite struct ConsoleWalletTests {
    @Test(arguments: TestEngine.available)
    func googleAndAppleTokensAreFoundAndNamed(_ engine: TestEngine) async throws {
        try await TestServer.run(engine, secureConsoleCookies: false) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let google = SandboxGoogleWallet(tokenService: h.network)
                let pushed = try await h.pushTokenize(try await h.googlePushData(), into: google)
                let added = try #require(await h.network.outcome(sessionID: try await h.add().sessionID))
                let (googleID, appleID) = (pushed.issuerTokenID, added.issuerTokenID)
                let samsung = SandboxSamsungWallet(tokenService: h.network)
                let samsungID = try await h.tokens(of: try await h.addToSamsung(samsung)).1.id
                let watchID = try await h.tokens(of: try await h.addToWatch(samsung)).1.id

                // The issuer's backend: `GET /v1/tokens?card_id=` names the wallet and the device.
                let listed = try await h.issuerTokens()
                let googleToken = try #require(listed.first { $0.id == googleID })
                #expect(googleToken.wallet == .googlePay && googleToken.deviceType == .phone)
                #expect(try #require(listed.first { $0.id == appleID }).wallet == .applePay)
                let bytes = try #require(server.answers.all.last { $0.operationID == "listTokens" })
                let object = try JSONSerialization.jsonObject(with: bytes.body) as? [String: Any]
                let raw = try #require(object?["data"] as? [[String: Any]])
                let rawGoogle = try #require(raw.first { $0["id"] as? String == googleID })
                #expect(rawGoogle["wallet"] as? String == "google_pay" && rawGoogle["device_type"] as? String == "phone")

                // Support: the search by last 4 finds both, each with its wallet's name.
                let agent = try await server.makeOperator(tenantID: h.tenantID, role: .support)
                let browser = ConsoleSession(raw: server.raw)
                _ = try await browser.signIn(tenantID: h.tenantID, email: agent.email, password: agent.password)
                let last4 = String(SandboxNetworkHarness.pan.suffix(4))
                let found = try await browser.get("/console/tokens?last4=\(last4)")
                #expect(found.status == 200)
                #expect(Self.row(googleID, in: found.text)?.contains(#"class="wallet">Google Pay<"#) == true, "\(found.text)")
                #expect(Self.row(googleID, in: found.text)?.contains(#"class="device">phone<"#) == true)
                #expect(Self.row(appleID, in: found.text)?.contains(#"class="wallet">Apple Pay<"#) == true)
                #expect(Self.row(samsungID, in: found.text)?.contains(#"class="wallet">Samsung Pay<"#) == true)
                #expect(Self.row(samsungID, in: found.text)?.contains(#"class="device">phone<"#) == true)
                #expect(Self.row(watchID, in: found.text)?.contains(#"class="wallet">Samsung Pay<"#) == true)
                #expect(Self.row(watchID, in: found.text)?.contains(#"class="device">watch<"#) == true)
                #expect(!found.text.contains("samsung_pay"))
                #expect(!found.text.contains("google_pay") && !found.text.contains("apple_pay"), "no wire words")

                let page = try await browser.get("/console/tokens/\(googleID)")
                #expect(page.text.contains(#"<dd id="token-wallet">Google Pay</dd>"#), "\(page.text)")
                #expect(page.text.contains(#"<dd id="token-device">phone</dd>"#))
                // The card's page: every token and every attempt, named.
                let card = try await browser.get("/console/cards/\(h.cardID)")
                for (name, count) in [("Google Pay", 2), ("Apple Pay", 2), ("Samsung Pay", 4)] {
                    #expect(card.text.components(separatedBy: ">\(name)<").count - 1 == count, "\(name): tokens and attempts")
                }
                for text in [found.text, page.text, card.text] { #expect(!text.contains(SandboxNetworkHarness.pan)) }
            }
        }
    }

    @Test func everyWalletAndDeviceHasItsWords() {
        #expect(Wallet.allCases.map(ConsoleWords.wallet) == ["Apple Pay", "Google Pay", "Samsung Pay"])
        #expect(DeviceType.allCases.map(ConsoleWords.device) == ["phone", "watch", "tablet"])
        #expect(ConsoleWords.device(nil) == "unknown")
    }

    /// The token table's row for a token id (from its link to the end of the row).
    static func row(_ tokenID: String, in page: String) -> String? {
        guard let start = page.range(of: #"<a href="/console/tokens/\#(tokenID)">"#) else { return nil }
        return page[start.upperBound...].components(separatedBy: "</tr>").first
    }
}
