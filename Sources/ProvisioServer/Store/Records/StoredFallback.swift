import ProvisioCore

/// A raw-value enum that reads a stored value it does not know as a fallback rather than failing
/// the read: a row written by a newer server (a network added) stays readable after a rollback.
/// `RecordCoding` applies it to every record it decodes.
protocol StoredFallback {
    static func fromStored(_ raw: String) -> Self
}

extension PaymentNetwork: StoredFallback {
    static func fromStored(_ raw: String) -> Self { Self(rawValue: raw) ?? .unknown }
}

extension CardStatus: StoredFallback {
    /// Unknown is closed: a card the server cannot read the status of is never provisioned.
    static func fromStored(_ raw: String) -> Self { Self(rawValue: raw) ?? .closed }
}
