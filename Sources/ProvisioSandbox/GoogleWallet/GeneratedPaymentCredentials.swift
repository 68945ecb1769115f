import Foundation

/// What the issuer's app answers Google with: TapAndPay's `GeneratePaymentCredentialsResponse`,
/// built with `setOpaquePaymentCard` (the TSP OPC, for the device token) and
/// `setGoogleOpaquePaymentCard` (the Google OPC, for the card saved to the Google Account)
/// ([POM]; docs/android-wallets.md §1). Both are the bytes of what the issuer's backend returned
/// (Pomelo passes the UTF-8 bytes of each base64 string, as the legacy request does).
public struct GeneratedPaymentCredentials: Sendable, Hashable {
    /// The TSP OPC.
    public var opaquePaymentCard: Data
    /// The Google OPC; nil when the app produced none.
    public var googleOpaquePaymentCard: Data?

    public init(opaquePaymentCard: Data, googleOpaquePaymentCard: Data?) {
        self.opaquePaymentCard = opaquePaymentCard
        self.googleOpaquePaymentCard = googleOpaquePaymentCard
    }

    /// From the two strings Provisio's push data names (`opaque_payment_card`,
    /// `google_opaque_payment_card`).
    public init(opaquePaymentCard: String, googleOpaquePaymentCard: String?) {
        self.init(
            opaquePaymentCard: Data(opaquePaymentCard.utf8),
            googleOpaquePaymentCard: googleOpaquePaymentCard.map { Data($0.utf8) })
    }
}
