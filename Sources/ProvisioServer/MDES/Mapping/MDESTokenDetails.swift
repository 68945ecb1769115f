/// What MDES tells of a token itself (not the card): its last four digits and its expiry, from
/// the decrypted `tokenData` or a redigitization's `tokenExpiry`. Pure; the token's full number
/// is never kept.
struct MDESTokenDetails: Sendable, Equatable {
    var last4: String?
    var expiryMonth: Int
    /// Four digits.
    var expiryYear: Int

    /// From `tokenData` (`token`, `expiryMonth`, `expiryYear`, two digits each for the expiry,
    /// their format already checked against the document); a month outside 1…12 is refused.
    init(token: String?, month: String, year: String, field: String) throws {
        guard let monthValue = Int(month), (1...12).contains(monthValue), let yearValue = Int(year) else {
            throw MDESRefusal.value(field)
        }
        last4 = token.map { String($0.suffix(4)) }
        expiryMonth = monthValue
        expiryYear = 2000 + yearValue
    }

    /// From `tokenExpiry`, MMYY.
    init(mmyy: String, field: String) throws {
        guard mmyy.count == 4 else { throw MDESRefusal.format(field) }
        try self.init(token: nil, month: String(mmyy.prefix(2)), year: String(mmyy.suffix(2)), field: field)
    }

    /// The token with these details; the last four digits stay when MDES did not send them.
    func applied(to token: TokenRecord) -> TokenRecord {
        var updated = token
        updated.tokenLast4 = last4 ?? token.tokenLast4
        updated.tokenExpiryMonth = expiryMonth
        updated.tokenExpiryYear = expiryYear
        return updated
    }
}
