/// A card of the issuer's app, as the SDK knows it everywhere: listed by Provisio's mobile API
/// (`ProvisioMobileClient.cards()`), added in the app, and written to the App Group for the Wallet
/// extensions. No PAN and no secret.
///
/// In the App Group it is JSON with the keys `id`, `primaryAccountIdentifier`, `title`, `last4`,
/// `cardholderName`, `network` and `artReference` (those of the former `ExtensionCard`, so a file an
/// app already wrote stays readable). `cardArtURL` is not written: the extensions read the art
/// from the file `artReference` names.
public struct WalletCard: Codable, Hashable, Sendable, Identifiable {
    /// The app's identifier of the card (Provisio's `card_…`, or the issuer's own); unique in an
    /// extension configuration.
    public var id: String
    /// The issuer's card identifier, put in the add request; Wallet stores it on the pass.
    public var primaryAccountIdentifier: String
    /// What Wallet shows: the pass's localized description while adding, and the extension
    /// entry's title.
    public var title: String
    /// The card's last four digits.
    public var last4: String
    /// The name on the card, if known.
    public var cardholderName: String?
    /// The card's network; a name this SDK does not know is `.unknown`, which the add request
    /// leaves out.
    public var network: PaymentNetwork?
    /// The card art's file name in the App Group container (a name, not a path). Only the Wallet
    /// extensions need it: `problems()` requires it.
    public var artReference: String?
    /// Where the card art is, as Provisio's mobile API gives it (`card_art_url`), if set.
    public var cardArtURL: String?

    public init(
        id: String, primaryAccountIdentifier: String, title: String, last4: String, cardholderName: String? = nil,
        network: PaymentNetwork? = nil, artReference: String? = nil, cardArtURL: String? = nil
    ) {
        self.id = id
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.title = title
        self.last4 = last4
        self.cardholderName = cardholderName
        self.network = network
        self.artReference = artReference
        self.cardArtURL = cardArtURL
    }

    // The App Group's keys; `cardArtURL` stays out (see above).
    private enum CodingKeys: String, CodingKey {
        case id, primaryAccountIdentifier, title, last4, cardholderName, network, artReference
    }

    // Tolerant of networks added by a newer app version: one unknown name must not make the
    // whole configuration unreadable (and the extension disappear from Wallet). A missing
    // `artReference` decodes, and `problems()` refuses it.
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
        self.artReference = try container.decodeIfPresent(String.self, forKey: .artReference)
        self.cardArtURL = nil
    }

    /// A card as Provisio's mobile API lists it: the generated `MobileCard` conforms (in
    /// ProvisioClient). Declared here, next to the mapping, so that a field the document adds to
    /// `MobileCard` reaches `WalletCard` in this file alone.
    package protocol Listing {
        var id: String { get }
        var primaryAccountIdentifier: String { get }
        var last4: String { get }
        var cardholderName: String { get }
        var productTitle: String? { get }
        var cardArtUrl: String? { get }
        /// The network as the API spells it.
        var networkName: String { get }
    }

    /// A listed card: the title is the issuer's product title, else "Card ending in …"; a network
    /// this SDK does not know is `.unknown`. No art reference: the app names the App Group file
    /// when it saves the art.
    package init(listing card: some Listing) {
        self.init(
            id: card.id, primaryAccountIdentifier: card.primaryAccountIdentifier,
            title: card.productTitle ?? "Card ending in \(card.last4)", last4: card.last4,
            cardholderName: card.cardholderName, network: PaymentNetwork(rawValue: card.networkName) ?? .unknown,
            cardArtURL: card.cardArtUrl)
    }

    /// The card as the pass library matches it.
    public var identity: CardIdentity { CardIdentity(primaryAccountIdentifier: primaryAccountIdentifier, last4: last4) }

    /// The fields of the add request (an unknown network is dropped).
    public var requestConfiguration: AddPassRequestConfiguration { AddPassRequestConfiguration(card: self) }
}

extension WalletCard {
    /// This card's own problems as a Wallet extension's card (empty title, last 4 not four digits,
    /// no art reference, …).
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
        if !Self.isFileName(artReference) {
            problems.append(
                ProvisioError(.extensionCardInvalidArtReference, "The art of \(name) must be a file name in the App Group."))
        }
        return problems
    }

    private static func isFileName(_ reference: String?) -> Bool {
        guard let reference else { return false }
        return !reference.isEmpty && !reference.contains("/") && !reference.contains("\\") && reference != "."
            && reference != ".."
    }
}
