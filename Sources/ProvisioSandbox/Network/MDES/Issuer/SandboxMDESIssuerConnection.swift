import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import ProvisioCore
import ProvisioCrypto
import ProvisioSandboxMDESIssuerAPI

/// The card network's line to the issuer in Mastercard MDES's dialect: the Issuer Outbound
/// ("Pre-Digitization") API, through the client generated from the document
/// (`ProvisioSandboxMDESIssuerAPI`), over mutually authenticated TLS (`MDESTLSIdentity`).
///
/// | the network | MDES call |
/// |---|---|
/// | asks for a decision | `authorizeService`, the card in `encryptedPayload` |
/// | relays a one-time code | `deliverActivationCode` with the network's code |
/// | checks a typed code | `validateActivationCode` (the issuer counts attempts) |
/// | activated a token (TAV, code) | `notifyServiceActivated`, the token in `encryptedPayload` |
/// | suspended, resumed, deleted a token | `notifyTokenUpdated` `STATUS_UPDATE` |
///
/// MDES never learns the issuer's id of a token: the two share `tokenUniqueReference`, so the
/// decision's `tokenID` is that reference.
public struct SandboxMDESIssuerConnection: IssuerLink {
    public let endpoint: MDESIssuerEndpoint
    private let client: Client
    private let httpClient: MDESHTTPClientOwner
    let encryptor: MDESPayloadEncryptor
    let cardholder: MDESCardholderContact
    private let ledger = MDESTokenLedger()
    private let clock: any TimeSource
    private let random: any MDESRandomSource

    /// - Parameters:
    ///   - endpoint: the issuer's base URL, registered with Mastercard.
    ///   - identity: the client certificate MDES presents and the CA it trusts for the issuer.
    ///   - encryptor: seals card and token data for the issuer's public key.
    ///   - cardholder: the contact details the wallet passes on with a decision request.
    ///   - observer: tests only (see `MDESTrafficObserver`); nil in production.
    public init(
        endpoint: MDESIssuerEndpoint, identity: MDESTLSIdentity, encryptor: MDESPayloadEncryptor,
        cardholder: MDESCardholderContact = .sandbox,
        clock: any TimeSource = SystemTimeSource(), random: any MDESRandomSource = SystemMDESRandomSource(),
        timeout: Duration = .seconds(10), observer: MDESTrafficObserver? = nil
    ) throws {
        self.endpoint = endpoint
        let httpClient = MDESHTTPClientOwner(try identity.makeHTTPClient())
        self.httpClient = httpClient
        self.client = Client(
            serverURL: endpoint.serverURL,
            transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient.client, timeout: TimeAmount(timeout))),
            middlewares: [MDESAnswerLimit()] + (observer.map { [MDESTrafficTap(observer: $0)] } ?? []))
        self.encryptor = encryptor
        self.cardholder = cardholder
        self.clock = clock
        self.random = random
    }

    /// Closes the connections; the sandbox calls it once it stops.
    public func shutdown() async {
        await httpClient.shutdown()
    }

    /// MDES's form: 48 characters, `D` + a three-letter source + `MC` + hex, like the references
    /// MDES issues (`DWSPMC…`); the `SBX` source marks the sandbox's.
    public func makeTokenReference() -> String {
        "DSBXMC" + BinaryText.lowercaseHex(random.bytes(21))
    }

    public var checksActivationCodes: Bool { true }

    var tenant: Components.Parameters.TenantId { endpoint.tenantID }

    func requestID() -> String { "sbx" + BinaryText.lowercaseHex(random.bytes(12)) }

    func correlationID() -> String { BinaryText.lowercaseHex(random.bytes(7)) }

    // MARK: - Decision

    public func requestDecision(_ request: IssuerDecisionRequest) async throws -> IssuerDecision {
        let now = clock.now()
        let formFactor = request.deviceType == .watch ? "WATCH" : "PHONE"
        let record = MDESTokenRecord(
            correlationID: correlationID(), formFactor: formFactor,
            wallet: MDESWalletIdentity(wallet: request.wallet, formFactor: formFactor), requestedAt: MDESTimestamp.string(now))
        let body = try authorizeServiceRequest(request, record: record, now: now)
        let answer = try await call("authorizeService") {
            switch try await client.authorizeService(path: .init(tenantId: tenant), body: .json(body)) {
            case .ok(let ok): return try ok.body.json
            case .badRequest(let refused): throw Self.refusal("authorizeService", 400, try? refused.body.json)
            case .default(let status, let failure): throw Self.refusal("authorizeService", status, try? failure.body.json)
            }
        }
        var stored = record
        stored.methods = (answer.activationMethods ?? []).map { .init(type: $0._type.rawValue, value: $0.value) }
        await ledger.record(stored, for: request.networkTokenRef)
        return IssuerDecision(answer, reference: request.networkTokenRef)
    }

    // MARK: - One-time codes

    public func relayOTP(_ otp: SandboxOTP, token: NetworkToken) async throws -> [IssuerConnection.OTPChannel] {
        // The method of the channel the cardholder chose.
        let type = otp.channel == .email ? "EMAIL_TO_CARDHOLDER_ADDRESS" : "TEXT_TO_CARDHOLDER_NUMBER"
        guard let record = await ledger.record(for: token.networkTokenRef),
            let method = record.methods.first(where: { $0.type == type })
        else {
            throw ProvisioError(
                .sandboxActivationMethodNotOffered, "The issuer offered no one-time code by \(otp.channel.rawValue).")
        }
        let body = Components.Schemas.DeliverActivationCodeRequest(
            requestId: requestID(), tokenUniqueReference: token.networkTokenRef, correlationId: record.correlationID,
            activationMethod: .init(_type: .init(value2: method.type), value: method.value), activationCode: otp.code,
            expirationDateTime: .init(value1: MDESTimestamp.string(otp.expiresAt)), deviceInfo: Self.deviceInfo(record))
        _ = try await call("deliverActivationCode") {
            switch try await client.deliverActivationCode(path: .init(tenantId: tenant), body: .json(body)) {
            case .ok(let ok): return try ok.body.json
            case .badRequest(let refused): throw Self.refusal("deliverActivationCode", 400, try? refused.body.json)
            case .default(let status, let failure): throw Self.refusal("deliverActivationCode", status, try? failure.body.json)
            }
        }
        return [.init(type: MDESActivationMethodWords.channel(for: method.type), masked: method.value)]
    }

    public func checkActivationCode(_ code: String, token: NetworkToken) async throws -> ActivationCodeVerdict {
        let record = await ledger.record(for: token.networkTokenRef)
        let body = Components.Schemas.ValidateActivationCodeRequest(
            requestId: requestID(), tokenUniqueReference: token.networkTokenRef,
            correlationId: record?.correlationID ?? correlationID(), activationCode: code)
        let answer = try await call("validateActivationCode") {
            switch try await client.validateActivationCode(path: .init(tenantId: tenant), body: .json(body)) {
            case .ok(let ok): return try ok.body.json
            case .badRequest(let refused): throw Self.refusal("validateActivationCode", 400, try? refused.body.json)
            case .default(let status, let failure):
                throw Self.refusal("validateActivationCode", status, try? failure.body.json)
            }
        }
        switch answer.result {
        case .success: return .correct
        case .incorrectCode: return .incorrect
        case .incorrectCodeRetriesExceeded: return .attemptsExhausted
        case .expiredCode: return .expired
        }
    }

    // MARK: - Reports

    public func report(event: NetworkTokenEvent, reasonCode: String?, token: NetworkToken) async throws {
        switch event {
        case .activated, .otpVerified:
            try await notifyServiceActivated(token)
        case .suspended, .deviceLost:
            // Find My and the wallet suspend as the token requestor.
            try await notifyTokenUpdated(token, status: "SUSPENDED", suspendedBy: ["TOKEN_REQUESTOR"])
        case .resumed:
            try await notifyTokenUpdated(token, status: "ACTIVE", suspendedBy: nil)
        case .deleted, .removedFromWallet, .tokenExpired:
            try await notifyTokenUpdated(token, status: "DEACTIVATED", suspendedBy: nil)
        }
    }

    private func notifyServiceActivated(_ token: NetworkToken) async throws {
        let record = await ledger.record(for: token.networkTokenRef)
        let body = try notifyServiceActivatedRequest(token, record: record, now: clock.now())
        _ = try await call("notifyServiceActivated") {
            switch try await client.notifyServiceActivated(path: .init(tenantId: tenant), body: .json(body)) {
            case .ok(let ok): return try ok.body.json
            case .badRequest(let refused): throw Self.refusal("notifyServiceActivated", 400, try? refused.body.json)
            case .default(let status, let failure):
                throw Self.refusal("notifyServiceActivated", status, try? failure.body.json)
            }
        }
    }

    private func notifyTokenUpdated(_ token: NetworkToken, status: String, suspendedBy: [String]?) async throws {
        let body = Components.Schemas.NotifyTokenUpdatedRequest(
            requestId: requestID(), reasonCode: .init(value2: "STATUS_UPDATE"),
            tokens: [
                .init(
                    tokenUniqueReference: token.networkTokenRef, status: .init(value1: .init(value2: status)),
                    suspendedBy: suspendedBy?.map { .init(value2: $0) }, tokenExpiry: Self.mmyy(token.fundingExpiry))
            ])
        _ = try await call("notifyTokenUpdated") {
            switch try await client.notifyTokenUpdated(path: .init(tenantId: tenant), body: .json(body)) {
            case .ok(let ok): return try ok.body.json
            case .badRequest(let refused): throw Self.refusal("notifyTokenUpdated", 400, try? refused.body.json)
            case .default(let status, let failure): throw Self.refusal("notifyTokenUpdated", status, try? failure.body.json)
            }
        }
    }
}

/// One MDES exchange as it crossed the wire: the body sent and the answer, byte for byte.
public struct MDESObservedExchange: Sendable {
    /// The document's `operationId` (the sandbox's client) or the path's last segment (its
    /// Customer Service gateway).
    public let operation: String
    public let path: String
    public let request: [UInt8]
    public let status: Int
    public let response: [UInt8]

    public init(operation: String, path: String, request: [UInt8], status: Int, response: [UInt8]) {
        (self.operation, self.path, self.request, self.status) = (operation, path, request, status)
        self.response = response
    }
}

/// A test-only seam: sees every exchange of the sandbox's MDES, its Issuer Outbound calls and
/// its Customer Service answers, so a test can validate the sandbox's own traffic against the
/// documents (`SandboxMDESConformanceTests`). Production code never sets one; unset, nothing is
/// copied or kept. It sees card data only encrypted, but masked contact details in the clear.
public typealias MDESTrafficObserver = @Sendable (MDESObservedExchange) async -> Void

/// Hands each request and answer to the observer. It sits inside `MDESAnswerLimit` and reads the
/// answer within the same bound, so what the generated code decodes is what the observer saw.
struct MDESTrafficTap: ClientMiddleware {
    let observer: MDESTrafficObserver

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var sent: [UInt8] = []
        if let body { sent = try await [UInt8](collecting: body, upTo: MDESAnswerLimit.maximumBytes) }
        let (response, answer) = try await next(request, body == nil ? nil : HTTPBody(sent), baseURL)
        var received: [UInt8] = []
        if let answer { received = try await [UInt8](collecting: answer, upTo: MDESAnswerLimit.maximumBytes) }
        await observer(
            MDESObservedExchange(
                operation: operationID, path: baseURL.path + (request.path ?? ""), request: sent,
                status: response.status.code, response: received))
        return (response, answer == nil ? nil : HTTPBody(received))
    }
}
