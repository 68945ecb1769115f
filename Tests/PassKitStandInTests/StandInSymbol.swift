#if os(Linux)
    import Foundation

    /// One public declaration of the built PassKitStandIn module, as swift-symbolgraph-extract
    /// reports it.
    struct StandInSymbol: Sendable, Equatable {
        /// `["PKPassLibrary", "activate(_:activationData:completion:)"]`.
        var pathComponents: [String]
        /// `swift.class`, `swift.method`, `swift.property`, …
        var kind: String
        /// The declaration fragments joined: attributes, keywords, labels, types.
        var declaration: String
        /// The iOS `introduced` version the symbol graph gives it (its own or inherited), if any.
        var ios: String?
        var conformsToSendable: Bool = false
        var superclass: String?

        var path: String { pathComponents.joined(separator: ".") }
    }
#endif
