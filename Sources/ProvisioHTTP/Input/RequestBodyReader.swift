import Hummingbird
import NIOCore
import ProvisioCore

/// Reads a whole request body within the limits: over the context's `maxUploadSize` it is
/// `payloadTooLarge`, not all there by its `bodyDeadline` (or `minimumReadTime` after reading
/// began, if later) `requestTimeout`.
public enum RequestBodyReader {
    /// The least time a body is given once the server starts reading it.
    static let minimumReadTime: Duration = .seconds(1)

    public static func collect<Context: WireRequestContext>(
        _ request: inout Request, context: Context, dialect: WireDialect, watch: BodyDeadlineWatch = .shared
    ) async throws -> ByteBuffer {
        let limit = context.maxUploadSize
        let reading = request
        // Read in a task of its own, which the deadline cancels: this task cannot be cancelled
        // from outside, and the body's stream ends its wait when its reader is cancelled.
        let reader = Task {
            var copy = reading
            return try await copy.collectBody(upTo: limit)
        }
        let timedOut = Locked(false)
        // The server's own delay before reading (authentication on a busy machine) is not the
        // client's: the reader always gets a moment, so a body already received is read.
        let deadline = max(context.bodyDeadline, .now.advanced(by: Self.minimumReadTime))
        let registration = watch.register(deadline: deadline) {
            timedOut.withLock { $0 = true }
            reader.cancel()
        }
        defer { watch.cancel(registration) }
        let buffer: ByteBuffer
        do {
            buffer = try await withTaskCancellationHandler {
                try await reader.value
            } onCancel: {
                reader.cancel()
            }
        } catch is NIOTooManyBytesError {
            throw ProvisioError(dialect.payloadTooLarge, "The request body is larger than \(limit) bytes.")
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw ProvisioError(dialect.payloadTooLarge, "The request body is larger than \(limit) bytes.")
        } catch {
            guard timedOut.value else { throw error }
            throw ProvisioError(dialect.requestTimeout, "The request body did not arrive in time.")
        }
        request.body = .init(buffer: buffer)
        return buffer
    }
}
