/// A list and the cursor of the next page (absent on the last page).
struct ListWire<Item: Encodable>: Encodable {
    var data: [Item]
    var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case data
        case nextCursor = "next_cursor"
    }
}
