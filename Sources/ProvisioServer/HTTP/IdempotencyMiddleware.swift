import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import ProvisioCore
import ProvisioCrypto
import ProvisioHTTP
import ProvisioJSON

/// `Idempotency-Key` on POST: the first request with a key runs and its response (including a
/// 4xx) is stored; the same key with the same method, path and body replays it with
/// `Idempotent-Replayed: true`; the same key with anything else is 422
/// `idempotency_key_reused`. Concurrent duplicates: one claims the key, the others wait for its
/// answer. A 5xx releases the key so the client can retry (or a waiting duplicate runs it).
///
/// A duplicate waits without reading the database meanwhile when the claim is held in this
/// process: it is woken when that attempt ends (`IdempotencyClaims`). Only a claim held by
/// another process (two servers on one PostgreSQL) is polled, every `pollInterval`.
///
/// Nothing stored reveals a secret: the request is remembered as a keyed digest (its body may
/// hold a PAN) and the answer sealed by the vault (it may hold a bearer token or a signing
/// secret). The attempt that runs holds a lease it renews while it works; if its process dies,
/// the lease runs out and a retry takes the key over instead of waiting 25 hours.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = ProvisioRequestContext

    let store: any ProvisioStore
    let vault: PANVault
    let digester: KeyedDigester
    let clock: any TimeSource
    /// How long a claim holds without renewal; the running attempt renews it every third of it.
    var lease: Duration = .seconds(30)
    /// How long a duplicate waits for the first request before giving up with 409.
    var waitLimit: Duration = .seconds(15)
    /// How often a duplicate reads a key that another process holds.
    var pollInterval: Duration = .milliseconds(250)
    /// The claims this process's attempts hold. A class, created with the middleware:
    /// `ProvisioHTTPApplication.router` builds one middleware and every route group shares its
    /// copies, so every request of the server goes through this one registry.
    let claims = IdempotencyClaims()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard request.method == .post, let key = request.headers[.idempotencyKey] else {
            return try await next(request, context)
        }
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ProvisioError(.idempotencyKeyInvalid, "The Idempotency-Key must be 1 to 255 visible ASCII characters.")
        }
        let scope = try context.requirePrincipal().idempotencyScope
        var request = request
        let body = try await RequestBodyReader.collect(&request, context: context, dialect: .provisio)
        let requestHash = Self.fingerprint(method: request.method, path: request.uri.description, body: body, digester: digester)
        let token = RandomToken.secret(prefix: "idl_")
        // Registered before the store can show it on the key, so a duplicate that reads it there
        // finds it here; ended (waking the duplicates) once the store has the outcome, or on any
        // throw or cancellation.
        let attempt = IdempotencyClaims.Claim(scope: scope, key: key, token: token)
        claims.begin(attempt)
        defer { claims.end(attempt) }

        let deadline = ContinuousClock.now.advanced(by: waitLimit)
        // A claim whose attempt ended here but is still in progress in the store (the attempt was
        // cancelled, or could not store its outcome) stays until its lease runs out: poll it.
        var endedHere: String?
        while true {
            let now = clock.now()
            let claim = try await store.claimIdempotencyKey(
                scope: scope, key: key, requestHash: requestHash,
                lease: IdempotencyLease(token: token, expiresAt: now.addingTimeInterval(lease.seconds)), at: now)
            switch claim {
            case .claimed:
                return try await runAndRemember(
                    request, context: context, next: next, scope: scope, key: key, token: token, previousEffect: nil)
            case .tookOver(let previousEffect):
                return try await runAndRemember(
                    request, context: context, next: next, scope: scope, key: key, token: token,
                    previousEffect: previousEffect)
            case .existing(let record):
                guard record.requestHash == requestHash else {
                    throw ProvisioError(
                        .idempotencyKeyReused, "This Idempotency-Key was used with a different request; use a new key.")
                }
                if let replay = try replay(record, requestID: context.requestID) { return replay }
                guard ContinuousClock.now < deadline else {
                    throw ProvisioError(
                        .idempotencyRequestInProgress, "A request with this Idempotency-Key is still running; retry later.")
                }
                if let holder = record.leaseToken, holder != endedHere {
                    let holding = IdempotencyClaims.Claim(scope: scope, key: key, token: holder)
                    switch try await claims.wait(for: holding, until: deadline) {
                    case .ended:
                        endedHere = holder
                        continue
                    case .deadline:
                        continue  // one last read: answered by now, or 409
                    case .heldElsewhere:
                        break
                    }
                }
                let remaining = deadline - ContinuousClock.now
                if remaining > .zero { try await Task.sleep(for: min(pollInterval, remaining)) }
            }
        }
    }

    private func runAndRemember(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response, scope: String, key: String,
        token: String, previousEffect: String?
    ) async throws -> Response {
        // Renew the lease while the request runs, so only a dead process lets it lapse.
        let renewal = Task { [store, clock, lease] in
            while !Task.isCancelled {
                try await Task.sleep(for: lease / 3)
                let held = try await store.renewIdempotencyLease(
                    scope: scope, key: key, token: token, until: clock.now().addingTimeInterval(lease.seconds))
                if !held { return }
            }
        }
        defer { renewal.cancel() }
        var response: Response
        do {
            // The store records the request's effect on this claim with the effect itself; a
            // retry after a crash learns what was already done (see IdempotentEffect).
            response = try await IdempotentEffect.$claim.withValue(.init(scope: scope, key: key, token: token)) {
                try await IdempotentEffect.$previous.withValue(previousEffect) { try await next(request, context) }
            }
        } catch {
            response = WireDialect.provisio.response(
                for: WireDialect.provisio.provisioError(for: error), requestID: context.requestID)
        }
        renewal.cancel()
        guard response.status.code < 500 else {
            try? await store.releaseIdempotencyKey(scope: scope, key: key, token: token)
            return response
        }
        let collector = BodyCollector()
        try await response.body.write(collector)
        let bytes = collector.buffer
        let sealed = try vault.seal(secret: Data(buffer: bytes), context: Self.vaultContext(scope: scope, key: key))
        try await store.completeIdempotencyKey(
            scope: scope, key: key, token: token, status: response.status.code, body: sealed.serialized)
        response.body = .init(byteBuffer: bytes)
        return response
    }

    /// The stored answer, opened; an error answer carries this request's id, not the first one's.
    private func replay(_ record: IdempotencyRecord, requestID: String) throws -> Response? {
        guard record.state == .completed, let status = record.responseStatus, let stored = record.responseBody else {
            return nil
        }
        var body: Data
        do {
            body = try vault.openSecret(
                VaultRecord(serialized: stored), context: Self.vaultContext(scope: record.scope, key: record.key))
        } catch {
            throw ProvisioError(
                .idempotencyReplayUnavailable, "The stored answer for this Idempotency-Key cannot be read; use a new key.")
        }
        if status >= 400, let error = WireError.decode(from: body) {
            body = (try? JSONCoding.encoder.encode(WireError(error.provisioError, requestID: requestID))) ?? body
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.idempotentReplayed] = "true"
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func vaultContext(scope: String, key: String) -> String { "idempotency|\(scope)|\(key)" }

    /// Method, path and body under the server's request-digest key. A JSON body is digested in
    /// canonical form (sorted keys, no whitespace) so a retry that serialises the same object
    /// differently is still "the same request"; any other body is digested as bytes.
    static func fingerprint(method: HTTPRequest.Method, path: String, body: ByteBuffer, digester: KeyedDigester) -> String {
        let bytes = Data(buffer: body)
        if let canonical = RequestJSON.canonical(bytes) {
            return digester.digest([Data(method.rawValue.utf8), Data(path.utf8), Data("json".utf8), canonical])
        }
        return digester.digest([Data(method.rawValue.utf8), Data(path.utf8), Data("bytes".utf8), bytes])
    }
}

/// Collects a response body so it can be stored and sent.
///
/// `@unchecked Sendable`: written only by the single `ResponseBody.write` call that owns it and
/// read after that call returns, never concurrently.
final class BodyCollector: ResponseBodyWriter, @unchecked Sendable {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var copy = buffer
        self.buffer.writeBuffer(&copy)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
    static let idempotentReplayed = Self("Idempotent-Replayed")!
}
