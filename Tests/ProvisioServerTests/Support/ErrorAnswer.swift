import Foundation
import ProvisioAPI

/// A documented error response (`Components.Responses.*`): the status it is declared under and
/// its body, which is the document's `Error` schema for every one of them.
protocol ErrorAnswer: Sendable {
    static var status: Int { get }
    var errorBody: Components.Schemas._Error { get throws }
}

extension Components.Responses.BadRequest: ErrorAnswer {
    static var status: Int { 400 }
    var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.PushProvisioningBadRequest: ErrorAnswer {
    static var status: Int { 400 }
    var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.MalformedRequest: ErrorAnswer {
    static var status: Int { 400 }
    var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.Unauthorized: ErrorAnswer {
    static var status: Int { 401 }
    var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.Forbidden: ErrorAnswer {
    static var status: Int { 403 }
    var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.NotFound: ErrorAnswer {
    static var status: Int { 404 }
    var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.RequestTimeout: ErrorAnswer {
    static var status: Int { 408 }
    var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.Conflict: ErrorAnswer {
    static var status: Int { 409 }
    var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.PayloadTooLarge: ErrorAnswer {
    static var status: Int { 413 }
    var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.UnprocessableContent: ErrorAnswer {
    static var status: Int { 422 }
    var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.InternalError: ErrorAnswer {
    static var status: Int { 500 }
    var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.BadGateway: ErrorAnswer {
    static var status: Int { 502 }
    var errorBody: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.ServiceUnavailable: ErrorAnswer {
    static var status: Int { 503 }
    var errorBody: Components.Schemas._Error { get throws { try body.json } }
}
