import ProvisioAPI
import ProvisioCore

/// A card replaced with a new number: the PAN becomes a `PrimaryAccountNumber` here, as at
/// creation, and never comes back in the answer.
extension ProvisioAPIHandler {
    func replaceCard(_ input: Operations.ReplaceCard.Input) async throws -> Operations.ReplaceCard.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let pan = try PrimaryAccountNumber(body.pan)
        let expiry = try CardExpiry(month: body.expiryMonth, year: body.expiryYear)
        let (card, carried) = try await services.cardReplacement.replace(
            id: try Self.cardID(input.path.id), tenantID: try Self.tenantID(), pan: pan, expiry: expiry)
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(card, tokenUpdates: carried))))
    }
}
