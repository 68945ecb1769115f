/// The wallets Provisio provisions into.
public enum Wallet: String, Codable, Hashable, Sendable, CaseIterable {
    case applePay = "apple_pay"
    case googlePay = "google_pay"
    case samsungPay = "samsung_pay"

    public init(wireName: String) throws {
        guard let wallet = Self(rawValue: wireName) else {
            throw ProvisioError(.invalidWallet, "The wallet must be one of apple_pay, google_pay, samsung_pay.")
        }
        self = wallet
    }
}
