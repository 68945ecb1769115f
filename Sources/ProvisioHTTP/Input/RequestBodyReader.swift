import Hummingbird
import NIOCore
import ProvisioCore

/// Reads a whole request body within the limits: over the context's `maxUploadSize` it is
/// `payloadTooLarge`, not all there by its `bodyDeadline` `requestTimeout`.
public enum RequestBodyReader {
    public static func collect<Context: WireRequestContext>(
        _ request: inout Request, context: Context, dialect: WireDialect
    ) async throws -> ByteBuffer {
        let limit = context.maxUploadSize
        let deadline = context.bodyDeadline
        let reading = request
        let tooLarge = ProvisioError(dialect.payloadTooLarge, "The request body is larger than \(limit) bytes.")
        let buffer: ByteBuffer? = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                var copy = reading
                do {
                    return try await copy.collectBody(upTo: limit)
                } catch is NIOTooManyBytesError {
                    throw tooLarge
                } catch let error as HTTPError where error.status == .contentTooLarge {
                    throw tooLarge
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
            throw ProvisioError(dialect.requestTimeout, "The request body did not arrive in time.")
        }
        request.body = .init(buffer: buffer)
        return buffer
    }
}
