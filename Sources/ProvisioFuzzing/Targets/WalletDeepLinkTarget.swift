import Foundation
import ProvisioCore

/// The link Wallet opens the issuer app with: `WalletDeepLink(url:)`. The input is the URL's text
/// (bytes that are not UTF-8 percent-encoded); text that `URL(string:)` refuses never reaches the
/// parser (discarded).
///
/// Accepted: the fields are Wallet's (payment pass type, `verify`, a serial number of 1–128
/// characters); each of the three parameters occurs exactly once in the query, the serial number
/// is the parameter's value; a link built again from the fields (every byte but the unreserved
/// ones percent-encoded) and the URL's own `absoluteString` both parse to an equal link. Refused:
/// the common checks, with the seeds' serial numbers as secrets — a message may name a parameter
/// but never quote a parameter's value.
public struct WalletDeepLinkTarget: FuzzTarget {
    public let name = "deep-link"
    public var seedSecrets = SecretFragments()

    public static let codes: Set<String> = ["invalid_deep_link"]
    static let parameters = ["passTypeIdentifier", "serialNumber", "action"]

    public init() {}

    public var dictionary: [[UInt8]] {
        [
            "passTypeIdentifier", "serialNumber", "action", "verify", "Verify", "paymentpass.com.apple",
            "paymentpass.com.apple.", "&passTypeIdentifier=paymentpass.com.apple", "&serialNumber=", "&action=verify",
            "&action", "&serialNumber", "?", "&", "=", "#", "#frag", "+", "%20", "%26", "%3D", "%3F", "%23", "%00", "%FF",
            "%E2%80%AE", "%C3%A9", "://", "//", "@", ":8080", "[::1]", "file:///", "data:,", "%", "%%", "%2",
        ].map { Array($0.utf8) }
    }

    public func secrets(inSeed seed: [UInt8]) -> [[UInt8]] {
        guard let url = URL(string: Self.urlText(seed)),
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        else { return [] }
        return items.filter { $0.name == "serialNumber" }.compactMap { $0.value.map { Array($0.utf8) } }
    }

    public func withSeedSecrets(_ secrets: SecretFragments) -> WalletDeepLinkTarget {
        var copy = self
        copy.seedSecrets = secrets
        return copy
    }

    public func run(input: [UInt8]) -> FuzzOutcome {
        guard let url = URL(string: Self.urlText(input)) else { return .discarded(reason: "not a URL") }
        let link: WalletDeepLink
        do {
            link = try WalletDeepLink(url: url)
        } catch {
            // Parameter names may be named in a message; values never.
            return FuzzChecks.refusal(error, codes: Self.codes, secrets: seedSecrets, echoable: Self.parameterNames(of: url))
        }

        guard link.passTypeIdentifier == WalletDeepLink.paymentPassType, link.action == .verify,
            !link.serialNumber.isEmpty, link.serialNumber.count <= 128
        else { return .violation("accepted a link whose fields are not Wallet's") }
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        for parameter in Self.parameters {
            let count = items.filter { $0.name == parameter }.count
            guard count == 1 else {
                return .violation("accepted a link with \(count) \(parameter) parameters (a repeated parameter is refused)")
            }
        }
        guard items.first(where: { $0.name == "serialNumber" })?.value == link.serialNumber else {
            return .violation("the serial number is not the parameter's value")
        }

        let rebuilt =
            "issuer-app://wallet/verify?passTypeIdentifier=\(Self.encode(link.passTypeIdentifier))"
            + "&serialNumber=\(Self.encode(link.serialNumber))&action=\(Self.encode(link.action.rawValue))"
        guard let rebuiltURL = URL(string: rebuilt), let again = try? WalletDeepLink(url: rebuiltURL), again == link else {
            return .violation("the link built again from its fields (\(rebuilt.prefix(300))) does not parse to the same link")
        }
        guard let reread = URL(string: url.absoluteString), (try? WalletDeepLink(url: reread)) == link else {
            return .violation("the URL's absoluteString does not parse to the same link")
        }
        return .accepted
    }

    /// The input as URL text: as it is when it is UTF-8, else with every byte from 0x80 up
    /// percent-encoded (a URL handed to the app is text; its query may still decode to any bytes).
    static func urlText(_ input: [UInt8]) -> String {
        if let text = String(bytes: input, encoding: .utf8) { return text }
        var text = ""
        for byte in input {
            if byte < 0x80 {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "%" + String(byte, radix: 16, uppercase: true)
            }
        }
        return text
    }

    /// Percent-encodes every byte but RFC 3986's unreserved characters.
    static func encode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    /// The query's parameter names, decoded and raw.
    static func parameterNames(of url: URL) -> [[UInt8]] {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let decoded = (components?.queryItems ?? []).map { Array($0.name.utf8) }
        let raw = (components?.percentEncodedQuery ?? "").split(separator: "&").map {
            Array($0.prefix { $0 != "=" }.utf8)
        }
        return decoded + raw
    }
}
