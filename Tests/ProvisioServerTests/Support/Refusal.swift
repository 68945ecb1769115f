import Foundation
import ProvisioAPI

/// An error answer of a generated client's call: its status and the document's error body.
struct Refusal: Sendable, Equatable, CustomStringConvertible {
    let status: Int
    let error: Components.Schemas._Error._ErrorPayload

    var code: Components.Schemas.ErrorCode { error.code }
    var description: String { "\(status) \(error.code.rawValue): \(error.message) (\(error.requestId))" }
}
