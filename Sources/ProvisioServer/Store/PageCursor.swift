import Foundation
import ProvisioCore

/// Keyset pagination position: the last item's creation time and id, opaque to clients.
struct PageCursor: Sendable, Equatable {
    var createdAt: Int64
    var id: String

    init(createdAt: Int64, id: String) {
        self.createdAt = createdAt
        self.id = id
    }

    var encoded: String {
        BinaryText.base64URL(Data("\(createdAt):\(id)".utf8))
    }

    init(encoded: String) throws {
        guard let data = BinaryText.decodeBase64(encoded), let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":"), let createdAt = Int64(text[..<colon])
        else {
            throw ProvisioError(.invalidCursor, "The page cursor is not one this server issued.")
        }
        self.createdAt = createdAt
        self.id = String(text[text.index(after: colon)...])
    }
}
