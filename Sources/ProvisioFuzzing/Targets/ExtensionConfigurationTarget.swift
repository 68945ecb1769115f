import Foundation
import ProvisioCore

/// The App Group file the issuer app writes for its Wallet extensions:
/// `ExtensionConfiguration.decode(from:)`, which also runs `validate()`.
///
/// Accepted: the version is current and `problems()` is empty; the configuration re-encodes,
/// decodes to an equal value, and encodes again to the same bytes; card ids and account ids are
/// unique and the derived card lists have one entry per card. Refused: the common checks, with the
/// seeds' cardholder names and primary account identifiers as secrets — card ids, issuer and
/// consumer ids and the version are named in messages on purpose and may be echoed.
public struct ExtensionConfigurationTarget: FuzzTarget {
    public let name = "extension-configuration"
    public var seedSecrets = SecretFragments()

    public static let codes: Set<String> = [
        "extension_configuration_unreadable", "extension_configuration_unsupported_version",
        "extension_configuration_invalid_account", "extension_configuration_duplicate_account",
        "extension_configuration_duplicate_card", "extension_configuration_duplicate_primary_account_identifier",
        "extension_card_invalid", "extension_card_empty_title", "extension_card_invalid_last4",
        "extension_card_invalid_art_reference", "invalid_cardholder_name",
    ]
    static let secretKeys = ["cardholderName", "primaryAccountIdentifier"]
    static let echoableKeys = ["id", "issuerID", "consumerID", "version"]

    public init() {}

    public var dictionary: [[UInt8]] {
        [
            #""version":"#, #""accounts":"#, #""cards":"#, #""savedAt":"#, #""issuerID":"#, #""consumerID":"#,
            #""id":"#, #""primaryAccountIdentifier":"#, #""title":"#, #""last4":"#, #""cardholderName":"#,
            #""network":"#, #""artReference":"#, #""visa""#, #""unionpay""#, #""unknown""#, #""future-network""#,
            #""..""#, #"".""#, #""a/b""#, #""a\\b""#, #""1234""#, #""123""#, #""12345""#, #""١٢٣٤""#,
            #""2025-06-01T12:00:00Z""#, #""2025-06-01T12:00:00.5Z""#, #""2025-06-01T12:00:00+02:00""#,
            #""2025-13-01T00:00:00Z""#, #""1970-01-01T00:00:00Z""#, #"" ""#, #""\t""#, #""\u0000""#,
            "null", "[]", "{}", "1.0", "1e0",
        ].map { Array($0.utf8) }
    }

    public func secrets(inSeed seed: [UInt8]) -> [[UInt8]] {
        Self.secretKeys.flatMap { LenientJSON.values(forKey: $0, in: seed) }
    }

    public func withSeedSecrets(_ secrets: SecretFragments) -> ExtensionConfigurationTarget {
        var copy = self
        copy.seedSecrets = secrets
        return copy
    }

    public func run(input: [UInt8]) -> FuzzOutcome {
        let configuration: ExtensionConfiguration
        do {
            configuration = try ExtensionConfiguration.decode(from: Data(input))
        } catch {
            return FuzzChecks.refusal(
                error, codes: Self.codes, secrets: seedSecrets,
                echoable: Self.echoableKeys.flatMap { LenientJSON.values(forKey: $0, in: input) })
        }

        guard configuration.version == ExtensionConfiguration.currentVersion, configuration.problems().isEmpty else {
            return .violation("decoded a configuration that has problems")
        }
        let cardCount = configuration.accounts.reduce(0) { $0 + $1.cards.count }
        guard configuration.cards.count == cardCount, configuration.cardIdentities.count == cardCount,
            Set(configuration.cards.map(\.card.id)).count == cardCount,
            Set(configuration.accounts.map(\.id)).count == configuration.accounts.count
        else { return .violation("the card and account lists are inconsistent (or ids repeat)") }

        let encoded: Data
        do {
            encoded = try configuration.encoded()
        } catch {
            return .violation("a decoded configuration does not encode: \(error)")
        }
        let decoded: ExtensionConfiguration
        do {
            decoded = try ExtensionConfiguration.decode(from: encoded)
        } catch {
            return .violation("the re-encoded configuration does not decode: \(error)")
        }
        guard decoded == configuration else {
            return .violation("the re-encoded configuration decodes to a different value")
        }
        guard (try? decoded.encoded()) == encoded else {
            return .violation("encoding is not stable: the same value gave different bytes")
        }
        return .accepted
    }
}
