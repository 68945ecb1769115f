/// `Card.CARD_TYPE_*` that `AddCardInfo` allows for a payment card (Samsung's decompiled
/// `AddCardInfo`, docs/samsung-wallet.md; its vaccine pass is not a payment card).
///
/// Assumed: the string values. Samsung's pages name the constants, not their values; the
/// sandbox takes the constant's name without `CARD_TYPE_`, which is what Provisio's
/// `card_type` sends.
public enum SamsungCardType: String, Sendable, Hashable, CaseIterable {
    case credit = "CREDIT"
    case debit = "DEBIT"
    case creditDebit = "CREDIT_DEBIT"
}
