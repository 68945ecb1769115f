import Foundation

/// A card Unified Push Provisioning saved to the cardholder's Google Account from the Google
/// OPC, so Google can provision it to the cardholder's other devices later ([G-CON], [RAP],
/// [MQ]; docs/android-wallets.md §1). Google keeps the card number; the sandbox does not, and
/// keeps only what it shows: the last four digits and the expiry.
public struct GoogleCardOnFile: Sendable, Hashable {
    public let fpanLastFour: String
    public let expiryMonth: Int
    /// Two digits, as the OPC carries it.
    public let expiryYear: Int
    /// The push that saved it.
    public let serverSessionID: String
    public let savedAt: Date
}
