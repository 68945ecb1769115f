import Foundation

@testable import ProvisioCore

/// Builders shared by the pass-library and Wallet-extension tests.
enum WalletFixtures {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let account = ExtensionAccount.ID(issuerID: "acme", consumerID: "cust_1")

    static func card(_ number: Int, last4: String? = nil) -> CardIdentity {
        CardIdentity(primaryAccountIdentifier: "pai_\(number)", last4: last4 ?? String(format: "%04d", number))
    }

    static func pass(
        _ card: CardIdentity?, suffix: String? = nil, state: PassActivationState? = .activated, on device: WalletDevice = .phone,
        serial: String? = nil, deviceAccount: String? = nil
    ) -> WalletPassSnapshot {
        let id = serial ?? "serial_\(UUID().uuidString)"
        return WalletPassSnapshot(
            serialNumber: id, primaryAccountIdentifier: card?.primaryAccountIdentifier,
            primaryAccountNumberSuffix: suffix ?? card?.last4 ?? "0000", deviceAccountIdentifier: deviceAccount ?? "dai_\(id)",
            activationState: state, device: device)
    }

    static func library(
        _ passes: [WalletPassSnapshot] = [], watchPaired: Bool = true, canAdd: Bool = true
    ) -> PassLibrarySnapshot {
        PassLibrarySnapshot(passes: passes, isWatchPaired: watchPaired, canAddPaymentPasses: canAdd)
    }

    static func extensionCard(_ number: Int, last4: String? = nil, network: PaymentNetwork? = .visa) -> WalletCard {
        let identity = card(number, last4: last4)
        return WalletCard(
            id: "card_\(number)", primaryAccountIdentifier: identity.primaryAccountIdentifier, title: "Acme Card \(number)",
            last4: identity.last4, cardholderName: "Jane Appleseed", network: network, artReference: "art_\(number).png")
    }

    static func configuration(
        _ cards: [WalletCard], more accounts: [ExtensionAccount] = []
    ) -> ExtensionConfiguration {
        ExtensionConfiguration(
            accounts: [ExtensionAccount(issuerID: account.issuerID, consumerID: account.consumerID, cards: cards)] + accounts,
            savedAt: now)
    }

    static func session(expiresIn seconds: TimeInterval = 3600, accounts: Set<ExtensionAccount.ID> = [account])
        -> ExtensionSession
    {
        ExtensionSession(accountIDs: accounts, expiresAt: now.addingTimeInterval(seconds))
    }
}
