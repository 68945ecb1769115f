import Foundation

/// https://developer.apple.com/documentation/passkit/pkpasslibrarynotificationname
///
/// PassKit's notification names are this `NS_TYPED_ENUM`, not `Notification.Name`: observe them as
/// `Notification.Name(PKPassLibraryNotificationName.PKPassLibraryDidChange.rawValue)`.
public struct PKPassLibraryNotificationName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    /// https://developer.apple.com/documentation/passkit/pkpasslibrarynotificationname/init(rawvalue:)
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/passkit/pkpasslibrarynotificationname/init(_:)
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// https://developer.apple.com/documentation/passkit/pkpasslibrarynotificationname/pkpasslibrarydidchange
    @available(iOS 6.0, *)
    public static let PKPassLibraryDidChange = PKPassLibraryNotificationName("PKPassLibraryDidChangeNotification")
    /// https://developer.apple.com/documentation/passkit/pkpasslibrarynotificationname/pkpasslibraryremotepaymentpassesdidchange
    @available(iOS 9.0, *)
    public static let PKPassLibraryRemotePaymentPassesDidChange = PKPassLibraryNotificationName(
        "PKPassLibraryRemotePaymentPassesDidChangeNotification")
}
