import ProvisioCore

/// The card product's profile as the sandbox network keeps it on a token and Wallet on its pass:
/// the name and art the pass shows, how the cardholder reaches the issuer, the apps that may see
/// the pass (and the one Wallet opens for it), and the terms a new add must accept.
///
/// The issuer sends it whole (`card_profile` of its token decision, and of a product change on
/// the connector's card details); a new one replaces the old one.
public struct SandboxCardProfile: Sendable, Hashable {
    /// The terms and conditions Wallet shows before it makes the pass.
    public struct Terms: Sendable, Hashable {
        /// What the cardholder accepts, exactly (`POST …/terms-acceptance {"version"}`).
        public var version: String
        /// Where Wallet shows them from; nil when the issuer gave only a version.
        public var url: String?

        public init(version: String, url: String? = nil) {
            self.version = version
            self.url = url
        }
    }

    public var productID: String
    /// The product's name; the pass shows it as its title.
    public var name: String
    /// The URL Wallet opens in the issuer's app for the pass (see `SandboxPass.appLaunchURL`).
    public var appLaunchURL: String?
    /// Apple's application identifiers (`TEAMID.bundle.id`) of the apps that may see the pass.
    public var associatedApplicationIdentifiers: [String]
    /// The App Store ids Wallet offers when the app is not installed.
    public var associatedStoreIdentifiers: [Int]
    public var contactName: String?
    public var supportPhone: String?
    public var supportEmail: String?
    public var supportURL: String?
    public var termsURL: String?
    public var termsVersion: String?
    public var cardArtURL: String?

    public init(
        productID: String, name: String, appLaunchURL: String? = nil, associatedApplicationIdentifiers: [String] = [],
        associatedStoreIdentifiers: [Int] = [], contactName: String? = nil, supportPhone: String? = nil,
        supportEmail: String? = nil, supportURL: String? = nil, termsURL: String? = nil, termsVersion: String? = nil,
        cardArtURL: String? = nil
    ) {
        self.productID = productID
        self.name = name
        self.appLaunchURL = appLaunchURL
        self.associatedApplicationIdentifiers = associatedApplicationIdentifiers
        self.associatedStoreIdentifiers = associatedStoreIdentifiers
        self.contactName = contactName
        self.supportPhone = supportPhone
        self.supportEmail = supportEmail
        self.supportURL = supportURL
        self.termsURL = termsURL
        self.termsVersion = termsVersion
        self.cardArtURL = cardArtURL
    }

    /// The terms a new add must accept: there are some when the product names a version (the
    /// version is what the cardholder accepts; a URL without one asks for nothing).
    public var terms: Terms? {
        termsVersion.map { Terms(version: $0, url: termsURL) }
    }

    /// Whether the app with this identifier (`TEAMID.bundle.id`) may see a pass of this product:
    /// only the associated apps do. Compared exactly, as Apple matches application identifiers.
    public func isAssociated(withApplication applicationIdentifier: String) -> Bool {
        associatedApplicationIdentifiers.contains(applicationIdentifier)
    }

    /// What the pass shows of the product as card details: its name as the title, and its art
    /// when it has some (nil fields leave the pass's as they are).
    public var shownDetails: CardDetails {
        CardDetails(cardArtURL: cardArtURL, productTitle: name)
    }
}
