import Hummingbird
import NIOCore
import ProvisioCore

/// Reads a whole request body within the limits: over the size it is 413 `payload_too_large`,
/// not all there within the body-read timeout of the request's arrival it is 408
/// `request_timeout`. Both answers close
/// the connection (the rest of the body is never read).
enum RequestBodyReader {
    static func collect(_ request: inout Request, context: ProvisioRequestContext) async throws -> ByteBuffer {
        let limit = context.maxUploadSize
        let deadline = context.bodyDeadline
        let reading = request
        let buffer: ByteBuffer? = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                var copy = reading
                do {
                    return try await copy.collectBody(upTo: limit)
                } catch is NIOTooManyBytesError {
                    throw tooLarge(limit)
                } catch let error as HTTPError where error.status == .contentTooLarge {
                    throw tooLarge(limit)
                }
            }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let buffer else {
            throw ProvisioError(.requestTimeout, "The request body did not arrive in time.")
        }
        request.body = .init(buffer: buffer)
        return buffer
    }

    static func tooLarge(_ limit: Int) -> ProvisioError {
        ProvisioError(.payloadTooLarge, "The request body is larger than \(limit) bytes.")
    }
}
