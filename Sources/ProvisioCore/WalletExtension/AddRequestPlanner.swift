import Foundation

/// Checks a pass-entry add before any network call and says what it needs, or why it cannot go on.
///
/// In order: the identifier must be one this SDK produced and name a configured card
/// (`extension_entry_unknown`); the session must be valid for the card's account
/// (`extension_authentication_required`); the device must take passes
/// (`extension_device_unavailable`); the card must not already be on that device
/// (`extension_card_already_on_device` — only a live pass attributed to it counts). An add already
/// pending in the ledger is not refused: the same request again is Wallet retrying.
public enum AddRequestPlanner {
    /// The plan for `entryIdentifier`, or a `ProvisioError` with one of the codes above.
    public static func plan(
        entryIdentifier: String, configuration: ExtensionConfiguration?, session: ExtensionSession?,
        library: PassLibrarySnapshot, now: Date
    ) throws -> AddRequestPlan {
        guard let entry = PassEntryIdentifier(rawValue: entryIdentifier), let configuration,
            let found = configuration.cards.first(where: { $0.card.id == entry.cardID })
        else {
            throw ProvisioError(.extensionEntryUnknown, "No configured card matches the pass entry '\(entryIdentifier)'.")
        }
        let (accountID, card) = found
        guard let session, session.authorizes(accountID, at: now) else {
            throw ProvisioError(.extensionAuthenticationRequired, "The cardholder must sign in again before adding a card.")
        }
        let decision = AddCardDecider(library: library, issuerCards: configuration.cardIdentities)
            .decision(for: card.identity, on: entry.device)
        switch decision.reason {
        case .notOnDevice, .onlyDeactivatedPass, .ambiguousLastFour:
            return AddRequestPlan(entry: entry, accountID: accountID, card: card)
        case .unsupportedDevice, .noPairedWatch:
            throw ProvisioError(.extensionDeviceUnavailable, "The \(entry.device.rawValue) cannot take a payment pass now.")
        case .alreadyOnThisDevice, .alreadyOnWatch, .activating, .requiresActivation, .suspended, .unknownPassState:
            throw ProvisioError(
                .extensionCardAlreadyOnDevice, "The card '\(card.id)' is already on the \(entry.device.rawValue).")
        }
    }
}
