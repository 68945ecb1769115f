import Foundation
import Hummingbird

/// The tenant's card products, as support staff look them up when a cardholder asks why their
/// bank's app does not see a card in Wallet or which terms they accepted. Read only: products are
/// changed through the API, where their change reaches the passes.
extension ConsoleRoutes {
    func cardProductsPage(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let signedIn = try Self.signedIn(context)
        let products = services.cardProducts
        var values = Self.base("Card products", signedIn)
        values["products"] = try await products.products(tenantID: signedIn.tenantID).map {
            ConsoleViews.cardProduct($0, artURL: $0.art.map { "/v1/card-art/\($0.fileName)" })
        }
        return pages.page("card-products", values)
    }
}
