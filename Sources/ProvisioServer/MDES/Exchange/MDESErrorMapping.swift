import Foundation
import Hummingbird
import OpenAPIRuntime
import ProvisioCore

/// Any error an MDES request ended with, as the refusal MDES is answered with. The generated
/// decoder's errors name the field by its path in the document (names the document declares,
/// never a value); anything unexpected is Provisio's own failure.
enum MDESErrorMapping {
    static func refusal(for error: any Error) -> MDESRefusal {
        switch error {
        case let refusal as MDESRefusal:
            return refusal
        case let error as ServerError:
            if let refusal = error.underlyingError as? MDESRefusal { return refusal }
            if let decoding = error.underlyingError as? DecodingError { return refusal(for: decoding) }
            if error.underlyingError is ProvisioError { return refusal(for: error.underlyingError) }
            return MDESRefusal(.invalidJson, "The request body is not the operation's JSON object.")
        case let error as DecodingError:
            return refusal(for: error)
        case let error as ProvisioError:
            switch error.code {
            case .payloadTooLarge:
                return MDESRefusal(.invalidFieldLength, "The request body is too large.", status: .contentTooLarge)
            case .requestTimeout:
                return MDESRefusal(.invalidJson, "The request body did not arrive in time.", status: .requestTimeout)
            default: return .internalFailure
            }
        default:
            return .internalFailure
        }
    }

    static func refusal(for error: DecodingError) -> MDESRefusal {
        switch error {
        case .keyNotFound(let key, let context):
            return .missing(path(context.codingPath + [key]))
        case .valueNotFound(_, let context):
            return .missing(path(context.codingPath))
        case .typeMismatch(_, let context):
            return .format(path(context.codingPath))
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? MDESRefusal(.invalidJson, "The request body is not valid JSON.") : .format(path(context.codingPath))
        @unknown default:
            return MDESRefusal(.invalidJson, "The request body is not valid JSON.")
        }
    }

    /// `fundingAccountInfo.encryptedPayload.iv`: declared names only (an array index is left
    /// out; the generated types' wrapper keys are not names of the document).
    static func path(_ keys: [any CodingKey]) -> String {
        let names = keys.filter { $0.intValue == nil && !$0.stringValue.hasPrefix("value") }.map(\.stringValue)
            .filter { name in (1...64).contains(name.count) && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        return names.isEmpty ? "body" : names.joined(separator: ".")
    }
}
