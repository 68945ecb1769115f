import Foundation
import OpenAPIRuntime
import ProvisioAPI
import ProvisioCore

/// Card products (`/v1/card-products`) and the public card art they serve
/// (`/v1/card-art/{digest}`).
extension ProvisioAPIHandler {
    func createCardProduct(_ input: Operations.CreateCardProduct.Input) async throws
        -> Operations.CreateCardProduct.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let tenantID = try Self.tenantID()
        let product: CardProductRecord
        // A retry after a crash answers with the product the first attempt created.
        if let previous = IdempotentEffect.previous("card_product") {
            product = try await services.cardProducts.product(id: previous, tenantID: tenantID)
        } else {
            var settings = CardProductSettings(name: body.name)
            Self.apply(
                UpdateFields(
                    name: nil, appLaunchURL: body.appLaunchUrl, applicationIDs: body.associatedApplicationIdentifiers,
                    storeIDs: body.associatedStoreIdentifiers, contactName: body.contactName, supportPhone: body.supportPhone,
                    supportEmail: body.supportEmail, supportURL: body.supportUrl, termsURL: body.termsUrl,
                    termsVersion: body.termsVersion, methods: body.activationMethods),
                to: &settings)
            product = try await services.cardProducts.create(settings, isDefault: body._default ?? false, tenantID: tenantID)
        }
        return .created(
            .init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(product, products: services.cardProducts))))
    }

    func listCardProducts(_ input: Operations.ListCardProducts.Input) async throws -> Operations.ListCardProducts.Output {
        let products = try await services.cardProducts.products(tenantID: try Self.tenantID())
        let service = services.cardProducts
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(.init(data: products.map { .init($0, products: service) }))))
    }

    func getCardProduct(_ input: Operations.GetCardProduct.Input) async throws -> Operations.GetCardProduct.Output {
        let product = try await services.cardProducts.product(id: input.path.id, tenantID: try Self.tenantID())
        return .ok(
            .init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(product, products: services.cardProducts))))
    }

    func updateCardProduct(_ input: Operations.UpdateCardProduct.Input) async throws
        -> Operations.UpdateCardProduct.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let fields = UpdateFields(
            name: body.name, appLaunchURL: body.appLaunchUrl, applicationIDs: body.associatedApplicationIdentifiers,
            storeIDs: body.associatedStoreIdentifiers, contactName: body.contactName, supportPhone: body.supportPhone,
            supportEmail: body.supportEmail, supportURL: body.supportUrl, termsURL: body.termsUrl,
            termsVersion: body.termsVersion, methods: body.activationMethods)
        guard !fields.isEmpty || body._default != nil else {
            throw ProvisioError(.invalidParameter, "The request changes nothing: give at least one field.")
        }
        let (product, carried) = try await services.cardProducts.update(id: input.path.id, tenantID: try Self.tenantID()) {
            settings, isDefault in
            Self.apply(fields, to: &settings)
            if let makeDefault = body._default { isDefault = makeDefault }
        }
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(.init(product, products: services.cardProducts, tokenUpdates: carried))))
    }

    func setCardProductArt(_ input: Operations.SetCardProductArt.Input) async throws
        -> Operations.SetCardProductArt.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let kind: CardArtFile.Kind =
            switch body.contentType {
            case .imagePng: .png
            case .applicationPdf: .pdf
            }
        let art = try CardArtFile(kind: kind, base64: body.data)
        let (product, carried) = try await services.cardProducts.setArt(
            art, id: input.path.id, tenantID: try Self.tenantID())
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(.init(product, products: services.cardProducts, tokenUpdates: carried))))
    }

    func getCardArt(_ input: Operations.GetCardArt.Input) async throws -> Operations.GetCardArt.Output {
        guard let (bytes, kind) = try await services.cardProducts.art(fileName: input.path.digest) else {
            throw ProvisioError(.cardArtNotFound, "No card art with this name.")
        }
        let headers = Operations.GetCardArt.Output.Ok.Headers(
            xRequestId: try Self.requestID(), cacheControl: "public, max-age=31536000, immutable")
        let body: Operations.GetCardArt.Output.Ok.Body =
            switch kind {
            case .png: .png(HTTPBody(bytes))
            case .pdf: .pdf(HTTPBody(bytes))
            }
        return .ok(.init(headers: headers, body: body))
    }

    /// A product's fields as a create or PATCH gives them; nil leaves a field as it is.
    struct UpdateFields {
        var name: String?
        var appLaunchURL: String?
        var applicationIDs: [String]?
        var storeIDs: [Int]?
        var contactName: String?
        var supportPhone: String?
        var supportEmail: String?
        var supportURL: String?
        var termsURL: String?
        var termsVersion: String?
        var methods: [Components.Schemas.ActivationMethod]?

        var isEmpty: Bool {
            name == nil && appLaunchURL == nil && applicationIDs == nil && storeIDs == nil && contactName == nil
                && supportPhone == nil && supportEmail == nil && supportURL == nil && termsURL == nil
                && termsVersion == nil && methods == nil
        }
    }

    static func apply(_ fields: UpdateFields, to settings: inout CardProductSettings) {
        if let name = fields.name { settings.name = name }
        if let value = fields.appLaunchURL { settings.appLaunchURL = value }
        if let value = fields.applicationIDs { settings.associatedApplicationIdentifiers = value }
        if let value = fields.storeIDs { settings.associatedStoreIdentifiers = value }
        if let value = fields.contactName { settings.contactName = value }
        if let value = fields.supportPhone { settings.supportPhone = value }
        if let value = fields.supportEmail { settings.supportEmail = value }
        if let value = fields.supportURL { settings.supportURL = value }
        if let value = fields.termsURL { settings.termsURL = value }
        if let value = fields.termsVersion { settings.termsVersion = value }
        if let value = fields.methods { settings.activationMethods = value.map(\.rawValue) }
    }
}

extension Components.Schemas.CardProduct {
    init(_ product: CardProductRecord, products: CardProductService, tokenUpdates: [TokenCarryResult]? = nil) {
        let settings = product.settings
        self.init(
            id: product.id, name: settings.name, _default: product.isDefault, appLaunchUrl: settings.appLaunchURL,
            associatedApplicationIdentifiers: settings.associatedApplicationIdentifiers,
            associatedStoreIdentifiers: settings.associatedStoreIdentifiers, contactName: settings.contactName,
            supportPhone: settings.supportPhone, supportEmail: settings.supportEmail, supportUrl: settings.supportURL,
            termsUrl: settings.termsURL, termsVersion: settings.termsVersion,
            activationMethods: settings.activationMethods.compactMap(Components.Schemas.ActivationMethod.init(rawValue:)),
            art: product.art.map {
                .init(
                    contentType: $0.kind == .png ? .imagePng : .applicationPdf, sha256: $0.sha256, byteCount: $0.byteCount,
                    width: $0.width, height: $0.height, url: products.url(of: $0))
            }, createdAt: product.createdAt, updatedAt: product.updatedAt,
            tokenUpdates: tokenUpdates?.map(Components.Schemas.TokenUpdate.init))
    }
}

extension Components.Schemas.CardProfile {
    init(_ profile: CardProfile) {
        self.init(
            productId: profile.productID, name: profile.name, appLaunchUrl: profile.appLaunchURL,
            associatedApplicationIdentifiers: profile.associatedApplicationIdentifiers,
            associatedStoreIdentifiers: profile.associatedStoreIdentifiers, contactName: profile.contactName,
            supportPhone: profile.supportPhone, supportEmail: profile.supportEmail, supportUrl: profile.supportURL,
            termsUrl: profile.termsURL, termsVersion: profile.termsVersion, cardArtUrl: profile.cardArtURL)
    }
}
