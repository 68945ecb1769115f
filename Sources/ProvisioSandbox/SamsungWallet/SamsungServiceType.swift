/// `SpaySdk.ServiceType`, the `PartnerServiceType` a partner puts in its `PartnerInfo` bundle:
/// `APP2APP` for an issuer's push provisioning, `INAPP_PAYMENT` for a merchant's (Samsung's
/// push-provisioning and app-to-app guides, docs/samsung-wallet.md).
public enum SamsungServiceType: String, Sendable, Hashable, CaseIterable {
    case app2app = "APP2APP"
    case inAppPayment = "INAPP_PAYMENT"
}
