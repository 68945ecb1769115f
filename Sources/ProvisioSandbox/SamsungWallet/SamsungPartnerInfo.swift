import ProvisioCore

/// The Samsung Pay SDK's `PartnerInfo`: the service id the Samsung Pay portal gave the issuer's
/// app, and its bundle's `PartnerServiceType` and optional `issuerName` (docs/samsung-wallet.md).
public struct SamsungPartnerInfo: Sendable, Hashable {
    /// The sandbox's bound on a service id (Samsung does not publish one).
    public static let serviceIDLimit = 128

    public let serviceID: String
    public let serviceType: SamsungServiceType
    /// `EXTRA_ISSUER_NAME`. Samsung takes issuer names from its portal since API level 1.4; the
    /// sandbox has no portal and shows this name on the partner's cards instead.
    public let issuerName: String?

    /// `sandbox_samsung_partner_info_invalid` (`ERROR_PARTNER_INFO_INVALID`, -99) for an empty
    /// service id, one over `serviceIDLimit` characters, or an empty issuer name.
    public init(serviceID: String, serviceType: SamsungServiceType = .app2app, issuerName: String? = nil) throws {
        guard !serviceID.isEmpty, serviceID.count <= Self.serviceIDLimit else {
            throw ProvisioError(
                .sandboxSamsungPartnerInfoInvalid,
                "\(SamsungErrorCode.partnerInfoInvalid): the service id must have 1 to \(Self.serviceIDLimit) characters.")
        }
        guard issuerName.map({ !$0.isEmpty && $0.count <= Self.serviceIDLimit }) ?? true else {
            throw ProvisioError(
                .sandboxSamsungPartnerInfoInvalid,
                "\(SamsungErrorCode.partnerInfoInvalid): the issuer name must have 1 to \(Self.serviceIDLimit) characters.")
        }
        self.serviceID = serviceID
        self.serviceType = serviceType
        self.issuerName = issuerName
    }
}
