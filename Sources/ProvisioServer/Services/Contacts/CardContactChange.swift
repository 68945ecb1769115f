/// What a card update does to one of the cardholder's contacts: a new value replaces the one
/// held, `remove` forgets it (the API's empty string).
public enum CardContactChange<Value: Sendable>: Sendable {
    case replace(Value)
    case remove
}
