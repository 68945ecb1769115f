import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox

extension DemoScenarios {
    /// The bank's app, as Apple names it (`TEAMID.bundle.id`), and another app on the phone.
    static let bankApp = "A1B2C3D4E5.com.demobank.app"
    static let otherApp = "Z9Y8X7W6V5.com.someone.else"

    // MARK: 21

    /// A card product with the bank's app, terms and art. In Provisio's dialect the network gets
    /// its profile with the decision: Wallet shows the terms and makes the pass only once the
    /// cardholder accepts exactly that version; the pass shows the product's name and art, only
    /// the bank's app sees it, Wallet opens the product's link for it, and a product change
    /// reaches the pass. Mastercard keeps product profiles itself: through MDES the network gets
    /// none, so the card adds at once and the change is refused for the token, as it says.
    func cardProduct() async throws {
        let mdes = world.network == .mdes
        let version = "2026-11"
        let product: Components.Schemas.CardProduct
        let artURL: String?
        do {
            product = try await world.issuer.createCardProduct(
                body: .json(
                    .init(
                        name: "Demo Visa Everyday", appLaunchUrl: "demobank://wallet/cards",
                        associatedApplicationIdentifiers: [Self.bankApp], associatedStoreIdentifiers: [1_234_567_890],
                        contactName: "Demo Bank", supportPhone: "+44 20 7946 0000",
                        termsUrl: "https://bank.example/terms/\(version)", termsVersion: version))
            ).created.body.json
            artURL = try await world.issuer.setCardProductArt(
                path: .init(id: product.id),
                body: .json(.init(contentType: .imagePng, data: Self.cardArtPNG().base64EncodedString()))
            ).ok.body.json.art?.url
        } catch {
            await transcript.fail("the card product was refused: \(DemoAPI.code(of: error))")
            return
        }
        await transcript.check(
            artURL != nil,
            "card product \"\(product.name)\": the bank's app \(Self.bankApp), terms \(version), art checked and served")

        let card: Components.Schemas.Card
        do {
            var request = Components.Schemas.CreateCardRequest(
                customerRef: world.customer("grace"), pan: "4000000760000002", expiryMonth: 12, expiryYear: 2031,
                cardholderName: "Grace Product")
            request.productId = product.id
            card = try await world.issuer.createCard(body: .json(request)).created.body.json
        } catch {
            await transcript.fail("the card was refused: \(DemoAPI.code(of: error))")
            return
        }
        let mobile = try await world.mobileSession(customer: "grace")
        let (session, added) = try await world.add(card: card, on: .phone, mobileToken: mobile)

        // The terms: Wallet stops before the pass is made (not through MDES: no profile there).
        var pass: SandboxClient.Pass?
        switch added {
        case .failure(let error) where error.code == .sandboxTermsNotAccepted:
            let waiting = try? await sandbox.outcome(sessionID: session.id)
            await transcript.check(
                !mdes && waiting?.pass == nil && waiting?.termsVersion == version,
                "Wallet shows the product's terms (\(waiting?.termsVersion ?? "?")) and makes no pass before they are accepted")
            let wrong = await Self.refusal { try await sandbox.acceptTerms(sessionID: session.id, version: "2026-10") }
            pass = try? await sandbox.acceptTerms(sessionID: session.id, version: version).pass
            await transcript.check(
                wrong == .sandboxTermsVersionMismatch && pass?.activationState == .activated,
                "another version is refused (\(wrong?.rawValue ?? "accepted")); exactly \(version) accepted: the pass is made")
        case .success(let outcome):
            pass = outcome.pass
            await transcript.check(mdes && pass != nil, "Mastercard keeps the product's terms: the card adds at once")
            let nothing = await Self.refusal { try await sandbox.acceptTerms(sessionID: session.id, version: version) }
            await transcript.check(
                nothing == .sandboxTermsNotPending, "no add waits for terms (\(nothing?.rawValue ?? "accepted"))")
        case .failure(let error):
            await transcript.fail("the add failed: \(error.code.rawValue)")
            return
        }
        guard let pass else {
            await transcript.fail("Wallet made no pass")
            return
        }

        // What the pass shows and who sees it.
        let bankSees = (try? await sandbox.passes(visibleToApplication: Self.bankApp).map(\.serialNumber)) ?? []
        let otherSees = (try? await sandbox.passes(visibleToApplication: Self.otherApp).map(\.serialNumber)) ?? []
        let link = try? await sandbox.appLaunchURL(serialNumber: pass.serialNumber)
        if mdes {
            await transcript.check(pass.cardProfile == nil, "the pass carries no profile from Provisio")
            await transcript.check(
                bankSees.contains(pass.serialNumber) && otherSees.contains(pass.serialNumber),
                "every app sees the pass, as before products")
            await transcript.check(link == nil, "Wallet has no app link of Provisio's for it (Mastercard holds the product's)")
        } else {
            await transcript.check(
                pass.productTitle == product.name && pass.cardArtUrl == artURL,
                "the pass shows the product's name (\(pass.productTitle ?? "none")) and its art")
            await transcript.check(
                bankSees.contains(pass.serialNumber) && !otherSees.contains(pass.serialNumber),
                "only the bank's app sees the pass in its pass library; \(Self.otherApp) does not")
            await transcript.check(
                link == "demobank://wallet/cards?passTypeIdentifier=paymentpass.com.apple&serialNumber=\(pass.serialNumber)",
                "Wallet opens the product's link with the pass's identifiers: \(link?.prefix(64) ?? "none")…")
        }

        // A product change: renamed, and a second app of the bank.
        let renamed = "Demo Visa Everyday Plus"
        let changed = try? await world.issuer.updateCardProduct(
            path: .init(id: product.id),
            body: .json(.init(name: renamed, associatedApplicationIdentifiers: [Self.bankApp, Self.otherApp]))
        ).ok.body.json
        let outcomes = changed?.tokenUpdates?.map(\.outcome) ?? []
        let after = try await world.pass(serialNumber: pass.serialNumber)
        if mdes {
            await transcript.check(
                outcomes == [.failed] && after?.productTitle == pass.productTitle,
                "the product change is refused for the token through MDES (Mastercard keeps the product's profile)")
        } else {
            let seen = (try? await sandbox.passes(visibleToApplication: Self.otherApp).map(\.serialNumber)) ?? []
            await transcript.check(
                outcomes == [.updated] && after?.productTitle == renamed && seen.contains(pass.serialNumber),
                "a product change reaches the pass: now \"\(after?.productTitle ?? "?")\", and the bank's second app sees it")
        }
    }

    /// The code a sandbox call was refused with; nil when it was not.
    static func refusal(_ call: () async throws -> some Any) async -> ProvisioError.Code? {
        do {
            _ = try await call()
            return nil
        } catch let error as ProvisioError {
            return error.code
        } catch {
            return .sandboxAnswerMalformed
        }
    }

    /// Card art as Apple asks for it: 1536 × 969, opaque, square corners — one navy colour, a
    /// 1-bit palette PNG whose image data sits in stored (uncompressed) deflate blocks.
    static func cardArtPNG(width: Int = 1536, height: Int = 969) -> Data {
        let rowBytes = (width + 7) / 8
        var scanlines = [UInt8]()
        scanlines.reserveCapacity((rowBytes + 1) * height)
        for _ in 0..<height {
            scanlines.append(0)  // filter type None
            scanlines.append(contentsOf: repeatElement(0, count: rowBytes))
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        while offset < scanlines.count {
            let length = min(65_535, scanlines.count - offset)
            let isLast: UInt8 = offset + length == scanlines.count ? 1 : 0
            let size = UInt16(length)
            zlib += [isLast, UInt8(size & 0xFF), UInt8(size >> 8), UInt8(~size & 0xFF), UInt8(~size >> 8)]
            zlib += scanlines[offset..<offset + length]
            offset += length
        }
        var (low, high): (UInt32, UInt32) = (1, 0)
        for byte in scanlines {
            low = (low + UInt32(byte)) % 65_521
            high = (high + low) % 65_521
        }
        zlib += bigEndian(high << 16 | low)
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [1, 3, 0, 0, 0]
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return Data(
            signature + chunk("IHDR", header) + chunk("PLTE", [0x14, 0x2D, 0x6E]) + chunk("IDAT", zlib)
                + chunk("IEND", []))
    }

    /// CRC-32 (ISO 3309, the polynomial PNG uses), bit by bit.
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
