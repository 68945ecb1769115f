import Foundation
import ProvisioCore

/// The activation methods a yellow token's cardholder is offered, and the one-time code's
/// channel held to them.
extension TokenService {
    /// The offers for `card` on `device` (`ActivationOfferPlanner`): the methods its card product
    /// offers (every method without one), the card's masked contacts, and the product's support
    /// number for customer service (else the tenant's).
    public func activationOffers(device: DeviceType?, card: CardRecord) async throws -> [ActivationOffer] {
        let product = try await products?.product(followedBy: card)
        let offered =
            product?.settings.activationMethods.compactMap(ActivationMethod.init(rawValue:)) ?? ActivationMethod.allCases
        var support = product?.settings.supportPhone
        if support == nil {
            support = try await settings.activationMethods(tenantID: card.tenantID).customerServicePhoneNumber
        }
        return ActivationOfferPlanner.offers(
            device: device, offered: offered, maskedPhone: card.cardholderPhoneMasked,
            maskedEmail: card.cardholderEmailMasked, customerServicePhone: support)
    }

    /// Relays the network's one-time code by the channel the cardholder chose, which must be one
    /// offered for this token (`activation_method_not_offered`); the webhook names the offer's
    /// masked contact, never the clear one.
    public func relayOTP(
        networkTokenRef: String, tenantID: String, code: String, expiresAt: Date?, details: OTPRequestDetails, relay: OTPRelay
    ) async throws -> [OTPRelay.Channel] {
        guard (4...8).contains(code.count), code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ProvisioError(.invalidOTP, "code must be 4 to 8 digits.")
        }
        try details.validate()
        return try await relayCode(
            networkTokenRef: networkTokenRef, tenantID: tenantID, code: code, expiresAt: expiresAt, relay: relay,
            details: details, holdToOffers: true)
    }

    /// The offer the chosen channel stands for, or `activation_method_not_offered`.
    func offer(for details: OTPRequestDetails, token: TokenRecord, card: CardRecord) async throws -> ActivationOffer {
        let method = ActivationOfferPlanner.method(ofChannel: details.channel)
        guard let offer = try await activationOffers(device: token.deviceType, card: card).first(where: { $0.method == method })
        else {
            throw ProvisioError(
                .activationMethodNotOffered,
                "A one-time code by \(details.channel.rawValue) was not offered for this token (\(method.rawValue)).")
        }
        return offer
    }
}
