import Foundation
import HTTPTypes
import ProvisioCore

/// Every answer the generated clients of one test server received: which operation answered
/// with which status (what a conformance test covered) and the bytes (what a PAN search reads).
final class ServedAnswers: Sendable {
    struct Answer: Sendable {
        let operationID: String
        let status: Int
        let headers: HTTPFields
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
    }

    private let answers = Locked<[Answer]>([])

    func record(operationID: String, status: Int, headers: HTTPFields, body: Data) {
        answers.withLock { $0.append(Answer(operationID: operationID, status: status, headers: headers, body: body)) }
    }

    var all: [Answer] { answers.withLock { $0 } }

    /// The operations that answered with a 2xx.
    var succeededOperations: Set<String> {
        Set(all.filter { (200..<300).contains($0.status) }.map(\.operationID))
    }
}
