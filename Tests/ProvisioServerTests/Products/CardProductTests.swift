import Foundation
import OpenAPIRuntime
import ProvisioAPI
import ProvisioCore
import Testing

@testable import ProvisioServer

/// Card products over HTTP: created and held to their rules, one default per tenant, cards that
/// take one, art checked like `provisio doctor` checks an app's and served publicly.
@Suite(.timeLimit(.minutes(10))) struct CardProductTests {
    static func everything(_ name: String = "Demo Visa Everyday", isDefault: Bool? = nil)
        -> Components.Schemas.CreateCardProductRequest
    {
        .init(
            name: name, _default: isDefault, appLaunchUrl: "demobank://wallet/cards",
            associatedApplicationIdentifiers: ["A1B2C3D4E5.com.demobank.app", "A1B2C3D4E5.com.demobank.app.WalletExtension"],
            associatedStoreIdentifiers: [1_234_567_890], contactName: "Demo Bank card services",
            supportPhone: "+1 800 555 0100", supportEmail: "cards@demobank.example", supportUrl: "https://demobank.example/help",
            termsUrl: "https://demobank.example/terms/wallet", termsVersion: "2026-11",
            activationMethods: [.otpSms, .customerService])
    }

    @Test(arguments: TestEngine.available)
    func productsAreCheckedListedAndOneIsTheDefault(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let first = try await api.createCardProduct(body: .json(Self.everything(isDefault: true))).created.body.json
            #expect(first.id.hasPrefix("cprod_") && first._default && first.art == nil)
            #expect(first.associatedApplicationIdentifiers.count == 2 && first.associatedStoreIdentifiers == [1_234_567_890])
            #expect(first.activationMethods == [.otpSms, .customerService] && first.termsVersion == "2026-11")
            // Left out, every method is offered.
            let second = try await api.createCardProduct(body: .json(.init(name: "  Premium  ", _default: true)))
                .created.body.json
            #expect(second.name == "Premium" && second.activationMethods == [.appToApp, .otpSms, .otpEmail, .customerService])
            // The new default took the flag.
            let listed = try await api.listCardProducts().ok.body.json.data
            // (Both made in the same millisecond of the test clock: compared as a set.)
            #expect(Set(listed.map(\.id)) == [first.id, second.id])
            #expect(listed.filter(\._default).map(\.id) == [second.id])

            // Each field to its rule, named in the message; nothing stored.
            let refusals: [(Components.Schemas.CreateCardProductRequest, Components.Schemas.ErrorCode, String)] = [
                (.init(name: "X", appLaunchUrl: "http://demobank.example/open"), .invalidParameter, "app_launch_url"),
                (.init(name: "X", appLaunchUrl: "javascript:alert(1)"), .invalidParameter, "app_launch_url"),
                (
                    .init(name: "X", associatedApplicationIdentifiers: ["a.b", "a.b"]), .invalidParameter,
                    "associated_application"
                ),
                (.init(name: "X", associatedStoreIdentifiers: [1, 1]), .invalidParameter, "associated_store"),
                (.init(name: "X", supportPhone: "call us"), .invalidParameter, "support_phone"),
                (.init(name: "X", supportEmail: "cards@localhost"), .invalidParameter, "support_email"),
                (.init(name: "X", supportUrl: "http://demobank.example"), .invalidParameter, "support_url"),
                (.init(name: "X", termsUrl: "https://demobank.example/terms"), .invalidParameter, "terms_version"),
                (.init(name: "Card 4111 1111 1111 1111"), .cardNumberInText, "name"),
                (.init(name: "   "), .invalidParameter, "name"),
            ]
            for (request, code, field) in refusals {
                let answer = try await api.createCardProduct(body: .json(request))
                #expect(answer.refused(400, code), "\(request): \(answer)")
                #expect(answer.refusal?.error.message.contains(field) == true, "\(answer)")
            }
            #expect(try await api.listCardProducts().ok.body.json.data.count == 2)

            // A PATCH changes what it names; an empty one is refused; a default can be given up.
            let patched = try await api.updateCardProduct(
                path: .init(id: first.id),
                body: .json(.init(_default: true, associatedApplicationIdentifiers: [], activationMethods: [.otpEmail]))
            )
            .ok.body.json
            #expect(
                patched._default && patched.associatedApplicationIdentifiers.isEmpty && patched.activationMethods == [.otpEmail])
            #expect(patched.name == first.name && patched.termsUrl == first.termsUrl && patched.tokenUpdates == [])
            #expect(try await api.getCardProduct(path: .init(id: second.id)).ok.body.json._default == false)
            #expect(
                try await api.updateCardProduct(path: .init(id: first.id), body: .json(.init())).refused(400, .invalidParameter))
            #expect(
                try await api.updateCardProduct(
                    path: .init(id: second.id), body: .json(.init(termsUrl: "https://demobank.example/terms/v2"))
                ).refused(400, .invalidParameter))

            // Cards take a product; an unknown one (or another tenant's) is refused.
            let request = Components.Schemas.CreateCardRequest(
                customerRef: "cust_1", pan: "4111111111111111", expiryMonth: 12, expiryYear: 2030,
                cardholderName: "Jane Appleseed", productId: second.id)
            let card = try await api.createCard(body: .json(request)).created.body.json
            #expect(card.productId == second.id)
            var unknown = request
            unknown.productId = "cprod_unknown"
            #expect(try await api.createCard(body: .json(unknown)).refused(404, .cardProductNotFound))
            let (_, otherKey) = try await server.makeTenant("Other Bank")
            let other = server.api(otherKey)
            #expect(try await other.getCardProduct(path: .init(id: first.id)).refused(404, .cardProductNotFound))
            #expect(try await other.createCard(body: .json(request)).refused(404, .cardProductNotFound))
            #expect(try await other.listCardProducts().ok.body.json.data.isEmpty)

            let audit = try await server.services.audit.events(
                tenantID: tenantID, filter: AuditFilter(targetType: "card_product"), cursor: nil, limit: 100
            ).items.map(\.action)
            #expect(audit.filter { $0 == "card_product.created" }.count == 2 && audit.contains("card_product.updated"))
        }
    }

    @Test func aTenantHoldsAtMostTheLimit() async throws {
        try await TestServer.run(.sqlite) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            for index in 0..<CardProductService.limit {
                _ = try await api.createCardProduct(body: .json(.init(name: "Product \(index)"))).created
            }
            let over = try await api.createCardProduct(body: .json(.init(name: "One more")))
            #expect(over.refused(409, .cardProductLimitReached), "\(over)")
            #expect(try await api.listCardProducts().ok.body.json.data.count == CardProductService.limit)
        }
    }

    @Test(arguments: TestEngine.available)
    func artIsCheckedLikeTheDoctorsAndServedPublicly(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            let product = try await api.createCardProduct(body: .json(.init(name: "Everyday"))).created.body.json
            func upload(_ data: Data, _ type: Components.Schemas.CardProductArtUpload.ContentTypePayload = .imagePng)
                async throws -> Operations.SetCardProductArt.Output
            {
                try await api.setCardProductArt(
                    path: .init(id: product.id), body: .json(.init(contentType: type, data: data.base64EncodedString())))
            }
            // Real art is larger than any other body may be: this route alone takes it.
            let png = TestCardArt.valid
            #expect(png.base64EncodedString().utf8.count > HTTPLimits.standard.maximumBodyBytes)
            let art = try #require(try await upload(png).ok.body.json.art)
            #expect(art.contentType == .imagePng && art.width == 1536 && art.height == 969 && art.byteCount == png.count)
            #expect(art.url == "http://127.0.0.1:\(server.raw.port ?? 0)/v1/card-art/\(art.sha256).png")

            // Served to anyone, immutable, byte for byte.
            let served = try await server.api().getCardArt(path: .init(digest: "\(art.sha256).png")).ok
            #expect(served.headers.cacheControl?.contains("immutable") == true)
            guard case .png(let body) = served.body else { Issue.record("not a PNG: \(served)"); return }
            #expect(try await Data(collecting: body, upTo: 8 << 20) == png)

            // The doctor's rules, each with its code.
            #expect(try await upload(TestCardArt.roundedCorners).refused(400, .cardArtRoundedCorners))
            #expect(try await upload(TestCardArt.small).refused(400, .cardArtWrongSize))
            #expect(try await upload(Data("not a png".utf8)).refused(400, .cardArtNotPng))
            let notBase64 = try await api.setCardProductArt(
                path: .init(id: product.id), body: .json(.init(contentType: .imagePng, data: "@@@")))
            #expect(notBase64.refused(400, .invalidParameter))
            // A vector PDF is kept whole; a truncated one is not.
            let pdf = Data("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)
            #expect(try await upload(pdf.prefix(30), .applicationPdf).refused(400, .cardArtNotPdf))
            let vector = try #require(try await upload(pdf, .applicationPdf).ok.body.json.art)
            #expect(vector.contentType == .applicationPdf && vector.width == nil)
            let pdfServed = try await server.api().getCardArt(path: .init(digest: "\(vector.sha256).pdf")).ok
            guard case .pdf(let pdfBody) = pdfServed.body else { Issue.record("not a PDF"); return }
            #expect(try await Data(collecting: pdfBody, upTo: 1 << 20) == pdf)
            // The replaced PNG is no longer served, nor anything no product holds.
            #expect(try await server.api().getCardArt(path: .init(digest: "\(art.sha256).png")).refused(404, .cardArtNotFound))
            let unknown = String(repeating: "0", count: 64) + ".png"
            #expect(try await server.api().getCardArt(path: .init(digest: unknown)).refused(404, .cardArtNotFound))
            #expect(
                try await server.api().getCardArt(path: .init(digest: "\(vector.sha256).png")).refused(404, .cardArtNotFound))
            #expect(try await api.getCardProduct(path: .init(id: product.id)).ok.body.json.art?.sha256 == vector.sha256)
            // Another route still holds bodies to the standard limit.
            let large = try await api.createCardProduct(
                body: .json(.init(name: "Big", supportUrl: "https://x.example/" + String(repeating: "a", count: 300_000))))
            #expect(large.refused(413, .payloadTooLarge), "\(large)")
        }
    }
}
