import Foundation

/// The link Wallet opens in the issuer's app (its `appLaunchURL`) when the cardholder taps
/// "verify" on a pass that requires activation: `passTypeIdentifier`, `serialNumber`, `action`.
public struct WalletDeepLink: Hashable, Sendable {
    public enum Action: String, Sendable { case verify }

    public static let paymentPassType = "paymentpass.com.apple"

    public let passTypeIdentifier: String
    public let serialNumber: String
    public let action: Action

    /// Parses the URL's query; refuses a link that is not Wallet's verification link.
    public init(url: URL) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw ProvisioError(.invalidDeepLink, "The link is not a URL.")
        }
        var values: [String: String] = [:]
        var seen: Set<String> = []
        for item in components.queryItems ?? [] {
            // Counted by name, with or without a value (`&action&action=verify` repeats it too).
            guard seen.insert(item.name).inserted else {
                throw ProvisioError(.invalidDeepLink, "The link repeats a parameter.")
            }
            values[item.name] = item.value
        }
        guard let type = values["passTypeIdentifier"], type == Self.paymentPassType else {
            throw ProvisioError(.invalidDeepLink, "The link is not for a payment pass (passTypeIdentifier).")
        }
        guard let serial = values["serialNumber"], !serial.isEmpty, serial.count <= 128 else {
            throw ProvisioError(.invalidDeepLink, "The link has no serialNumber.")
        }
        guard let actionName = values["action"], let action = Action(rawValue: actionName) else {
            throw ProvisioError(.invalidDeepLink, "The link's action is not verify.")
        }
        self.passTypeIdentifier = type
        self.serialNumber = serial
        self.action = action
    }
}
