/// The Samsung Pay SDK's `WatchManager`: the issuer's app reaches Samsung Pay on the paired
/// Galaxy Watch with the same calls as on the phone (status, `activateSamsungPay`, wallet info,
/// card list, `addCard`; docs/samsung-wallet.md). Its cards have `deviceType` `gear`.
public struct SamsungWatchManager: Sendable {
    public let wallet: SandboxSamsungWallet
    public let partner: SamsungPartnerInfo

    public func getSamsungPayStatus() async -> SamsungPayStatusResult {
        await wallet.status(partner, on: wallet.watch)
    }

    public func getWalletInfo() async throws -> SamsungWalletInfo {
        try await wallet.walletInfo(partner, on: wallet.watch)
    }

    public func getAllCards() async throws -> [SamsungCard] {
        try await wallet.allCards(partner, on: wallet.watch)
    }

    public func addCard(_ info: SamsungAddCardInfo) async throws -> SamsungCard {
        try await wallet.addCard(info, partner, on: wallet.watch)
    }

    /// `activateSamsungPay()`: the cardholder finishes Samsung Pay's setup on the watch (-356).
    public func activateSamsungPay() async {
        await wallet.resolve(.spaySetupNotCompleted, on: wallet.watch)
    }
}
