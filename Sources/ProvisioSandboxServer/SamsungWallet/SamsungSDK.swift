import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxSamsungWalletAPI

/// The Samsung Pay SDK as the issuer's app holds it for one device, with its `PartnerInfo`:
/// `SamsungPay` and `CardManager` on the phone, `WatchManager` on the paired watch. The same
/// calls on both, so each HTTP operation names the device and this picks the manager.
struct SamsungSDK: Sendable {
    let wallet: SandboxSamsungWallet
    let device: Components.Schemas.Device
    let partner: SamsungPartnerInfo

    func getSamsungPayStatus() async -> SamsungPayStatusResult {
        switch device {
        case .phone: await wallet.getSamsungPayStatus(partner)
        case .watch: await wallet.watchManager(partner).getSamsungPayStatus()
        }
    }

    func activateSamsungPay() async {
        switch device {
        case .phone: await wallet.activateSamsungPay()
        case .watch: await wallet.watchManager(partner).activateSamsungPay()
        }
    }

    /// `WatchManager` has no `goToUpdatePage` (Samsung lists none): `ERROR_NOT_SUPPORTED` there.
    func goToUpdatePage() async throws {
        switch device {
        case .phone:
            await wallet.goToUpdatePage()
        case .watch:
            throw ProvisioError(
                .sandboxSamsungNotSupported, "\(SamsungErrorCode.notSupported): WatchManager has no goToUpdatePage.")
        }
    }

    func getWalletInfo() async throws -> SamsungWalletInfo {
        switch device {
        case .phone: try await wallet.getWalletInfo(partner)
        case .watch: try await wallet.watchManager(partner).getWalletInfo()
        }
    }

    func getAllCards() async throws -> [SamsungCard] {
        switch device {
        case .phone: try await wallet.getAllCards(partner)
        case .watch: try await wallet.watchManager(partner).getAllCards()
        }
    }

    func addCard(_ info: SamsungAddCardInfo) async throws -> SamsungCard {
        switch device {
        case .phone: try await wallet.addCard(info, partner)
        case .watch: try await wallet.watchManager(partner).addCard(info)
        }
    }
}
