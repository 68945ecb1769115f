import ProvisioAPI

/// One optional free-text field of a card, side by side in the requests, the record and the
/// answers (`ProvisioAPIHandler.cardTexts`): read from `CreateCardRequest` and
/// `UpdateCardRequest`, validated by `CardService`, stored, answered in `Card`, and in
/// `MobileCard` where the app sees it.
struct CardTextField: Sendable {
    /// Its name in the API.
    let field: String
    let maximum: Int
    let record: WritableKeyPath<CardRecord, String?> & Sendable
    let create: KeyPath<Components.Schemas.CreateCardRequest, String?> & Sendable
    let update: KeyPath<Components.Schemas.UpdateCardRequest, String?> & Sendable
    let card: WritableKeyPath<Components.Schemas.Card, String?> & Sendable
    /// nil: the app does not see it.
    let mobile: (WritableKeyPath<Components.Schemas.MobileCard, String?> & Sendable)?

    /// The request's value, if it set one, for `CardService`.
    func text(from value: String?) -> CardText? {
        value.map { CardText(field: field, maximum: maximum, keyPath: record, value: $0) }
    }
}
