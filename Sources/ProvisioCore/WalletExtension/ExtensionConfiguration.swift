import Foundation

/// What the issuer app writes into its App Group for its Wallet extensions: the accounts and
/// cards to offer, so that `status` and `passEntries` answer from it without the network.
public struct ExtensionConfiguration: Codable, Hashable, Sendable {
    /// The format this SDK writes and reads; a file of another version is refused, not guessed.
    public static let currentVersion = 1

    /// The format version (`currentVersion` when written by this SDK).
    public var version: Int
    /// The issuer / consumer pairs, each with its cards, in display order.
    public var accounts: [ExtensionAccount]
    /// When the app wrote it.
    public var savedAt: Date

    public init(version: Int = ExtensionConfiguration.currentVersion, accounts: [ExtensionAccount], savedAt: Date) {
        self.version = version
        self.accounts = accounts
        self.savedAt = savedAt
    }

    /// Every card with its account, in configuration order.
    public var cards: [(account: ExtensionAccount.ID, card: WalletCard)] {
        accounts.flatMap { account in account.cards.map { (account.id, $0) } }
    }

    /// The identities of every configured card (what guards the last-4 fallback).
    public var cardIdentities: [CardIdentity] { accounts.flatMap { $0.cards.map(\.identity) } }

    /// The bytes to write to the App Group (stable JSON).
    public func encoded() throws -> Data {
        try ExtensionJSON.encoder().encode(self)
    }

    /// Reads and validates the App Group file: `extension_configuration_unreadable` for bytes that
    /// are not a configuration, `extension_configuration_unsupported_version` for another version
    /// (checked before the rest, so a newer layout is reported as such), else `validate()`'s errors.
    public static func decode(from data: Data) throws -> ExtensionConfiguration {
        struct VersionOnly: Decodable { var version: Int }
        let version = try ExtensionJSON.decode(
            VersionOnly.self, from: data, code: .extensionConfigurationUnreadable, what: "extension configuration"
        ).version
        try checkVersion(version)
        let configuration = try ExtensionJSON.decode(
            ExtensionConfiguration.self, from: data, code: .extensionConfigurationUnreadable,
            what: "extension configuration")
        try configuration.validate()
        return configuration
    }

    /// Throws the first problem `problems()` finds.
    public func validate() throws {
        if let first = problems().first { throw first }
    }

    /// Every problem in the configuration, in order (empty when valid).
    public func problems() -> [ProvisioError] {
        var problems: [ProvisioError] = []
        do { try Self.checkVersion(version) } catch let error as ProvisioError { problems.append(error) } catch {}
        var accountIDs: Set<ExtensionAccount.ID> = []
        var cardIDs: Set<String> = []
        var primaryAccountIdentifiers: Set<String> = []
        for account in accounts {
            if account.issuerID.isEmpty || account.consumerID.isEmpty {
                problems.append(
                    ProvisioError(.extensionConfigurationInvalidAccount, "An account has an empty issuer or consumer id."))
            }
            if !accountIDs.insert(account.id).inserted {
                problems.append(
                    ProvisioError(.extensionConfigurationDuplicateAccount, "The account \(account.id) is listed twice."))
            }
            for card in account.cards {
                problems += card.problems()
                if !cardIDs.insert(card.id).inserted {
                    problems.append(
                        ProvisioError(.extensionConfigurationDuplicateCard, "The card id '\(card.id)' is used twice."))
                }
                if !card.primaryAccountIdentifier.isEmpty
                    && !primaryAccountIdentifiers.insert(card.primaryAccountIdentifier).inserted
                {
                    problems.append(
                        ProvisioError(
                            .extensionConfigurationDuplicatePrimaryAccountIdentifier,
                            "Two cards share the primary account identifier of card '\(card.id)'."))
                }
            }
        }
        return problems
    }

    private static func checkVersion(_ version: Int) throws {
        guard version == currentVersion else {
            throw ProvisioError(
                .extensionConfigurationUnsupportedVersion,
                "The extension configuration is version \(version); this SDK reads version \(currentVersion).")
        }
    }
}
