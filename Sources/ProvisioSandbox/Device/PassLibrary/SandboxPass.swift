import ProvisioCore

/// A payment pass in the sandbox wallet, with the fields PassKit's `PKSecureElementPass`
/// exposes to the issuer app. It holds the last four digits of the card, never the PAN.
public struct SandboxPass: Sendable, Hashable, Identifiable {
    /// Apple's pass type identifier for every payment pass.
    public static let paymentPassTypeIdentifier = "paymentpass.com.apple"

    public let serialNumber: String
    public let passTypeIdentifier: String
    /// The issuer's identifier of the card (what the app set in the add request configuration).
    public let primaryAccountIdentifier: String
    /// The card's last four digits; the network changes them when the issuer reissues the card
    /// under a new number (MDES's token update).
    public internal(set) var primaryAccountNumberSuffix: String
    /// The network's identifier of the token on this device.
    public let deviceAccountIdentifier: String
    public internal(set) var activationState: SandboxPassActivationState
    public let deviceKind: SandboxDeviceKind
    /// The card details Wallet shows on the pass; the network updates them when the issuer
    /// reissues the card (a new expiry, new art).
    public internal(set) var details: CardDetails
    /// The card product's profile, when the issuer's card has a product: which apps see the pass
    /// and the URL Wallet opens in the issuer's app for it. Nil for a card without a product.
    public internal(set) var profile: SandboxCardProfile?

    public var id: String { serialNumber }

    /// Whether the app with this application identifier (`TEAMID.bundle.id`) sees the pass in
    /// its pass library: a pass of a product only for the product's associated apps; a pass
    /// without a product for every app (as before products existed, so cards without one behave
    /// as they always did).
    public func isVisible(toApplication applicationIdentifier: String) -> Bool {
        profile?.isAssociated(withApplication: applicationIdentifier) ?? true
    }

    /// The link Wallet opens in the issuer's app for this pass: the product's `app_launch_url`
    /// with the pass's identifiers appended as query parameters — `passTypeIdentifier`,
    /// `serialNumber`, and `action=verify` while the pass requires activation. That is the verify
    /// link Apple's "Getting Started with Apple Pay: In-App Provisioning, Verification, and
    /// Security" describes (and ProvisioCore's `WalletDeepLink` parses); for a pass that needs
    /// no verification the sandbox opens the app with the two identifiers only. Nil when the
    /// pass has no product or the product names no URL.
    public var appLaunchURL: String? {
        guard let base = profile?.appLaunchURL, !base.isEmpty else { return nil }
        var query = [
            ("passTypeIdentifier", passTypeIdentifier), ("serialNumber", serialNumber),
        ]
        if activationState == .requiresActivation { query.append(("action", "verify")) }
        let encoded = query.map { "\($0.0)=\(Self.queryEncoded($0.1))" }.joined(separator: "&")
        // The product's own query (and fragment) stay; the pass's parameters join the query.
        let (beforeFragment, fragment) = Self.split(base, at: "#")
        let joiner: String
        if !beforeFragment.contains("?") {
            joiner = "?"
        } else if beforeFragment.hasSuffix("?") || beforeFragment.hasSuffix("&") {
            joiner = ""
        } else {
            joiner = "&"
        }
        return beforeFragment + joiner + encoded + (fragment.map { "#" + $0 } ?? "")
    }

    /// True when the pass is on the paired Watch (a "remote" pass, seen from the iPhone).
    public var isRemote: Bool { deviceKind.isRemote }

    init(
        serialNumber: String, primaryAccountIdentifier: String, primaryAccountNumberSuffix: String,
        deviceAccountIdentifier: String, activationState: SandboxPassActivationState, deviceKind: SandboxDeviceKind,
        details: CardDetails = CardDetails(), profile: SandboxCardProfile? = nil
    ) {
        self.details = details
        self.profile = profile
        self.serialNumber = serialNumber
        self.passTypeIdentifier = Self.paymentPassTypeIdentifier
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.primaryAccountNumberSuffix = primaryAccountNumberSuffix
        self.deviceAccountIdentifier = deviceAccountIdentifier
        self.activationState = activationState
        self.deviceKind = deviceKind
    }

    /// Unreserved characters (RFC 3986) stay; everything else is percent-encoded.
    private static func queryEncoded(_ value: String) -> String {
        var encoded = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    private static func split(_ text: String, at separator: Character) -> (String, String?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (String(text[..<index]), String(text[text.index(after: index)...]))
    }
}
