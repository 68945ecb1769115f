/// A card as the app describes it to its Wallet extensions: what a pass entry shows and what the
/// add request needs. No PAN and no secret — it lives in the App Group container.
public struct ExtensionCard: Codable, Hashable, Sendable, Identifiable {
    /// The app's identifier of the card (Provisio's card id, or the issuer's); unique in a configuration.
    public var id: String
    /// The issuer's card identifier put in the add request (`primaryAccountIdentifier`).
    public var primaryAccountIdentifier: String
    /// The entry's title in Wallet (also the pass's localized description).
    public var title: String
    /// The card's last four digits.
    public var last4: String
    /// The name on the card, if the app has it.
    public var cardholderName: String?
    /// The card's network; a name this SDK does not know decodes as `.unknown`.
    public var network: PaymentNetwork?
    /// The card art's file name in the App Group container (a name, not a path).
    public var artReference: String

    public init(
        id: String, primaryAccountIdentifier: String, title: String, last4: String, cardholderName: String? = nil,
        network: PaymentNetwork? = nil, artReference: String
    ) {
        self.id = id
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.title = title
        self.last4 = last4
        self.cardholderName = cardholderName
        self.network = network
        self.artReference = artReference
    }

    private enum CodingKeys: String, CodingKey {
        case id, primaryAccountIdentifier, title, last4, cardholderName, network, artReference
    }

    // Tolerant of networks added by a newer app version: one unknown name must not make the
    // whole configuration unreadable (and the extension disappear from Wallet).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(String.self, forKey: .id)
        self.primaryAccountIdentifier = try container.decode(String.self, forKey: .primaryAccountIdentifier)
        self.title = try container.decode(String.self, forKey: .title)
        self.last4 = try container.decode(String.self, forKey: .last4)
        self.cardholderName = try container.decodeIfPresent(String.self, forKey: .cardholderName)
        self.network = try container.decodeIfPresent(String.self, forKey: .network).map {
            PaymentNetwork(rawValue: $0) ?? .unknown
        }
        self.artReference = try container.decode(String.self, forKey: .artReference)
    }

    /// The card as the pass library matches it.
    public var identity: CardIdentity { CardIdentity(primaryAccountIdentifier: primaryAccountIdentifier, last4: last4) }
}

extension ExtensionCard {
    /// This card's own problems (empty title, last 4 not four digits, …).
    public func problems() -> [ProvisioError] {
        var problems: [ProvisioError] = []
        let name = id.isEmpty ? "a card" : "card '\(id)'"
        if id.isEmpty { problems.append(ProvisioError(.extensionCardInvalid, "A card has an empty id.")) }
        if primaryAccountIdentifier.isEmpty {
            problems.append(ProvisioError(.extensionCardInvalid, "The primary account identifier of \(name) is empty."))
        }
        if title.allSatisfy(\.isWhitespace) {
            problems.append(ProvisioError(.extensionCardEmptyTitle, "The title of \(name) is empty."))
        }
        if last4.count != 4 || !last4.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
            problems.append(ProvisioError(.extensionCardInvalidLast4, "The last 4 of \(name) is not four digits."))
        }
        if let cardholderName {
            do { _ = try CardholderName(cardholderName) } catch let error as ProvisioError {
                problems.append(ProvisioError(error.code, "\(error.message) (\(name))"))
            } catch {}
        }
        if artReference.isEmpty || artReference.contains("/") || artReference.contains("\\") || artReference == "."
            || artReference == ".."
        {
            problems.append(
                ProvisioError(.extensionCardInvalidArtReference, "The art of \(name) must be a file name in the App Group."))
        }
        return problems
    }
}

extension ProvisioError.Code {
    /// A card with an empty id or primary account identifier.
    public static let extensionCardInvalid = Self("extension_card_invalid", status: .badRequest)
    /// A card whose title is empty.
    public static let extensionCardEmptyTitle = Self("extension_card_empty_title", status: .badRequest)
    /// A card whose last 4 is not exactly four ASCII digits.
    public static let extensionCardInvalidLast4 = Self("extension_card_invalid_last4", status: .badRequest)
    /// A card whose art reference is not a plain file name.
    public static let extensionCardInvalidArtReference = Self("extension_card_invalid_art_reference", status: .badRequest)
}
