import ProvisioKit

/// The non-UI Wallet extension's principal class (`NSExtensionPrincipalClass` in this target's
/// Info.plist: `$(PRODUCT_MODULE_NAME).IssuerWalletExtensionHandler`).
///
/// It is empty on purpose. ``ProvisioWalletExtensionHandler`` answers Wallet's `status`,
/// `passEntries`, `remotePassEntries` and `generateAddPaymentPassRequestForPassEntryWithIdentifier`
/// from what the app wrote into the App Group, the session the UI extension stored in the shared
/// keychain, and Provisio at `ServerURL` — all named by the `ProvisioExtension` dictionary in this
/// target's Info.plist.
///
/// The one thing worth adding is logging: override `errorEncountered(_:)` to send each
/// `ProvisioError` (`app_group_unavailable`, `keychain_group_unavailable`,
/// `extension_not_configured`, card-art problems, …) to your logger. Wallet itself only ever sees
/// a safe answer.
///
/// `@unchecked Sendable` only restates the base class's conformance, as Swift 6 asks every subclass
/// to; this class adds no state.
final class IssuerWalletExtensionHandler: ProvisioWalletExtensionHandler, @unchecked Sendable {}
