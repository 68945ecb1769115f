import ProvisioCore
import SQLKit

/// What ties a request's effect to its `Idempotency-Key`, so that a crash between the two
/// writes (the effect, then the stored answer) cannot make a retry repeat the effect.
///
/// The middleware runs each claimed request with `claim` set; every store write that makes a
/// request's effect (a card, a session, a provision token, a webhook endpoint or event, a token
/// change) records `kind:id` on the claim's row *in the same transaction*. When a retry takes
/// over a crashed attempt's claim, the middleware runs it with `previous` set to that record,
/// and the route answers from the effect that exists instead of making another.
///
/// Task-locals rather than parameters: the claim crosses routes, services and the store for
/// every POST alike, and no layer between the middleware and the store needs to know about it.
enum IdempotentEffect {
    struct Claim: Sendable {
        var scope: String
        var key: String
        var token: String
    }

    @TaskLocal static var claim: Claim?
    @TaskLocal static var previous: String?

    /// The id of the previous attempt's effect when it was of `kind`.
    static func previous(_ kind: String) -> String? {
        guard let previous, previous.hasPrefix(kind + ":") else { return nil }
        return String(previous.dropFirst(kind.count + 1))
    }

    /// Records `kind:id` on the running claim; call inside the effect's transaction.
    static func record(_ kind: String, id: String, in database: any SQLDatabase) async throws {
        guard let claim else { return }
        try await database.raw(
            """
            UPDATE idempotency_keys SET effect_ref = \(bind: kind + ":" + id)
            WHERE scope = \(bind: claim.scope) AND idempotency_key = \(bind: claim.key)
                AND lease_token = \(bind: claim.token) AND state = \(bind: IdempotencyRecord.State.inProgress.rawValue)
            """
        ).run()
    }
}
