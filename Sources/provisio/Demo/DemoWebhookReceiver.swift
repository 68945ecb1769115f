import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ProvisioCore
import ProvisioCrypto
import ProvisioHTTP

/// The issuer's webhook endpoint, played by the demo: a real HTTP server on loopback that
/// verifies every delivery's Standard Webhooks signature and keeps the verified events.
final class DemoWebhookReceiver: Sendable {
    struct Event: Sendable {
        var id: String
        var type: String
        var tokenID: String?
        var state: String?
        /// For `token.otp_requested`: the code the issuer now delivers to the cardholder.
        var code: String?
        /// For `token.otp_requested`: the chosen channel, its masked destination, the challenge.
        var channel: String? = nil
        var destinationMasked: String? = nil
        var challengeID: String? = nil
    }

    /// What the issuer answers an OTP request with: where it sent the code.
    static let otpAnswer = #"{"channels":[{"type":"sms","masked":"+1 ••• ••• 4821"}]}"#

    /// The answer for one request: by email to the masked address Provisio named, when the
    /// cardholder chose email; otherwise the standard SMS answer.
    static func otpAnswer(_ event: Event) -> String {
        guard event.channel == "email", let masked = event.destinationMasked,
            let data = try? JSONSerialization.data(withJSONObject: ["channels": [["type": "email", "masked": masked]]])
        else { return otpAnswer }
        return String(decoding: data, as: UTF8.self)
    }

    private struct State {
        var events: [Event] = []
        var rejected = 0
        var verifier: WebhookVerifier?
        var server: RunningApplication?
        var url = ""
    }

    private let state = Locked(State())

    func trust(secret: String) throws {
        let verifier = try WebhookVerifier(secret: secret)
        state.withLock { $0.verifier = verifier }
    }

    var received: [Event] { state.value.events }
    var rejectedCount: Int { state.value.rejected }
    /// Where the receiver listens, once `start()` returned.
    var url: String { state.value.url }

    func start() async throws {
        let router = Router()
        router.post("hooks") { [self] request, _ -> Response in
            var request = request
            let body = Data(buffer: try await request.collectBody(upTo: 1 << 20))
            let id = request.headers[HTTPField.Name("webhook-id")!] ?? ""
            let timestamp = request.headers[HTTPField.Name("webhook-timestamp")!] ?? ""
            let signature = request.headers[HTTPField.Name("webhook-signature")!] ?? ""
            let verifier = state.value.verifier
            do {
                guard let verifier else { throw CancellationError() }
                try verifier.verify(id: id, timestamp: timestamp, signatureHeader: signature, body: body, at: Date())
            } catch {
                state.withLock { $0.rejected += 1 }
                return Response(status: .unauthorized)
            }
            let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
            let data = object?["data"] as? [String: Any]
            let type = object?["type"] as? String ?? ""
            let token = type == "token.otp_requested" ? data?["token"] as? [String: Any] : data
            let event = Event(
                id: id, type: type, tokenID: token?["id"] as? String, state: token?["state"] as? String,
                code: data?["code"] as? String, channel: data?["channel"] as? String,
                destinationMasked: data?["destination_masked"] as? String, challengeID: data?["challenge_id"] as? String)
            state.withLock { $0.events.append(event) }
            if type == "token.otp_requested" {
                var headers = HTTPFields()
                headers[.contentType] = "application/json"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Self.otpAnswer(event))))
            }
            return Response(status: .noContent)
        }
        var logger = Logger(label: "demo-receiver")
        logger.logLevel = .critical
        let server = try await RunningApplication.start(logger: logger) { onListening in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) }, logger: logger)
        }
        state.withLock {
            $0.server = server
            $0.url = "http://127.0.0.1:\(server.port)/hooks"
        }
    }

    /// Waits (bounded) until an event of `type` for `tokenID` has arrived.
    func waitFor(_ type: String, tokenID: String?, timeout: Duration = .seconds(10)) async -> Event? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let event = received.first(where: { $0.type == type && (tokenID == nil || $0.tokenID == tokenID) }) {
                return event
            }
            try? await Task.sleep(for: .milliseconds(25))
        }
        return nil
    }

    /// Stops the server (gracefully: a delivery under way is answered) and waits until it has:
    /// a process that exited while its event loops were still closing the listener could trap on
    /// the way out.
    func stop() async {
        await state.value.server?.stop()
    }
}
