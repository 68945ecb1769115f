import Hummingbird
import NIOCore
import ProvisioCore

/// Reads a whole request body up to the context's limit; over it is 413 `payload_too_large`.
enum RequestBodyReader {
    static func collect(_ request: inout Request, context: ProvisioRequestContext) async throws -> ByteBuffer {
        do {
            return try await request.collectBody(upTo: context.maxUploadSize)
        } catch is NIOTooManyBytesError {
            throw tooLarge(context)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge(context)
        }
    }

    static func tooLarge(_ context: ProvisioRequestContext) -> ProvisioError {
        ProvisioError(.payloadTooLarge, "The request body is larger than \(context.maxUploadSize) bytes.")
    }
}
