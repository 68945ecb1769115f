/// One of the cardholder's contacts a card holds, sealed by the vault.
public enum CardContactKind: String, Sendable, CaseIterable {
    case phone
    case email
}
