/// What a wallet shows and honours for a card's product, whole, as the network is told it: the
/// pass's name, art and support; the apps that may see the pass and the one Wallet opens for it;
/// the terms a new add must accept. A profile always replaces the previous one.
public struct CardProfile: Sendable, Hashable, Codable {
    public var productID: String
    public var name: String
    public var appLaunchURL: String?
    public var associatedApplicationIdentifiers: [String]
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
}
