/// What the sandbox's MDES remembers of a token between calls to the issuer: the correlation id
/// that ties them together, and the activation methods the issuer offered, with their values
/// (a masked phone number, …) that `deliverActivationCode` names again.
struct MDESTokenRecord: Sendable, Hashable {
    struct Method: Sendable, Hashable {
        /// The document's type, such as `TEXT_TO_CARDHOLDER_NUMBER`.
        var type: String
        var value: String
    }

    var correlationID: String
    var formFactor: String
    /// The wallet the token is for, as MDES names it.
    var wallet: MDESWalletIdentity
    var methods: [Method] = []
    /// When MDES asked for the decision, for `notifyServiceActivated`'s `serviceRequestDateTime`.
    var requestedAt: String
}

/// The records, by `tokenUniqueReference`.
actor MDESTokenLedger {
    private var records: [String: MDESTokenRecord] = [:]

    func record(_ record: MDESTokenRecord, for reference: String) {
        records[reference] = record
    }

    func record(for reference: String) -> MDESTokenRecord? {
        records[reference]
    }
}
