import ProvisioCore

/// The card product's profile as the sandbox network keeps it on a token and Wallet on its pass:
/// the name and art the pass shows, how the cardholder reaches the issuer, the apps that may see
/// the pass (and the one Wallet opens for it), and the terms a new add must accept.
///
/// The issuer sends it whole (`card_profile` of its token decision, and of a product change on
/// the connector's card details); a new one replaces the old one. It is Core's `CardProfile`, the
/// one Provisio sends, with what Wallet does with it.
public typealias SandboxCardProfile = CardProfile

extension CardProfile {
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
