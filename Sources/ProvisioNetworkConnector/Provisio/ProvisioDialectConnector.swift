import Foundation
import OpenAPIRuntime
import ProvisioConnectorAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioJSON
import ProvisioOutbound
import ProvisioWireClient

/// `NetworkConnector` in the Provisio dialect: the connector API of
/// `network-connector-openapi.yaml` (`POST {base}/network/v1/tokens/{ref}/lifecycle`,
/// `…/card-details` and `…/activation`), through the client generated from it, with a bearer key,
/// over the transport the caller gives (the server's guarded outbound client: checked address,
/// no redirects). The answer must be strictly the documented token, and the one asked about.
/// The network's own words never reach Provisio's caller: only its status and, when it sends
/// one, its snake_case error code.
public struct ProvisioDialectConnector: NetworkConnector {
    public let baseURL: String
    private let client: Client?
    /// Encrypts a replaced card's number to the network's key (`…/funding-account`); nil: that
    /// command is refused before anything is sent.
    private let fundingAccountEncrypter: JWEEncrypter?

    public var dialect: NetworkDialect { .provisio }

    /// The most an answer may hold; the transport should stop reading there too.
    public static let maximumAnswerBytes = 64 * 1024

    public init(
        baseURL: String, apiKey: String, transport: any ClientTransport, fundingAccountEncrypter: JWEEncrypter? = nil
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.fundingAccountEncrypter = fundingAccountEncrypter
        self.client = URL(string: self.baseURL).map { url in
            Client(
                serverURL: url, transport: transport,
                middlewares: [
                    WireClientMiddleware(
                        key: apiKey, userAgent: "Provisio-Network-Connector/1", maximumAnswerBytes: Self.maximumAnswerBytes)
                ])
        }
    }

    public func send(_ command: NetworkCommand, networkTokenRef: String, reasonCode: String?) async throws
        -> NetworkCommandAnswer
    {
        guard let client else { throw ProvisioError(.networkUnavailable, "The card network's URL is not a URL.") }
        // Encrypted before the call: a number that cannot be sealed for the network is not sent.
        let encryptedFundingAccount = try command.replacement.map { try encryptFundingAccount(pan: $0.pan, expiry: $0.expiry) }
        let token = try await WireCall.perform("the \(command.action) command", failures: Self.failures) {
            switch command {
            case .suspend, .resume, .delete:
                let action: Components.Schemas.LifecycleRequest.ActionPayload =
                    command == .suspend ? .suspend : command == .resume ? .resume : .delete
                return try await client.applyLifecycleAction(
                    path: .init(ref: networkTokenRef), body: .json(.init(action: action, reasonCode: reasonCode))
                ).ok.body.json
            case .activate(let method):
                guard let method = Components.Schemas.ActivationRequest.MethodPayload(rawValue: method) else {
                    throw ProvisioError(
                        .networkRefused, "The card network activates a token only after customer service or the issuer's app.")
                }
                return try await client.activateToken(
                    path: .init(ref: networkTokenRef), body: .json(.init(method: method, reasonCode: reasonCode))
                ).ok.body.json
            case .updateCardDetails(let change):
                return try await client.updateCardDetails(
                    path: .init(ref: networkTokenRef),
                    body: .json(
                        .init(
                            expiryMonth: change.expiry?.month, expiryYear: change.expiry?.year,
                            cardholderName: change.cardholderName, cardArtUrl: change.cardArtURL,
                            productTitle: change.productTitle, cardProfile: change.profile.map(Self.wire)))
                ).ok.body.json
            case .replaceFundingAccount:
                guard let encryptedFundingAccount else { preconditionFailure("Encrypted before the call.") }
                return try await client.replaceFundingAccount(
                    path: .init(ref: networkTokenRef),
                    body: .json(.init(encryptedFundingAccount: encryptedFundingAccount, reasonCode: reasonCode))
                ).ok.body.json
            }
        }
        guard token.networkTokenRef == networkTokenRef else { throw Self.failures.malformed("") }
        return NetworkCommandAnswer(networkTokenRef: token.networkTokenRef, state: token.state.rawValue)
    }

    /// The new card as the network reads it, `{"fpan", "expiry_month", "expiry_year"}`, as a JWE
    /// to the network's key. The plaintext lives only here; an error says only that it failed.
    func encryptFundingAccount(pan: PrimaryAccountNumber, expiry: CardExpiry) throws -> String {
        guard let fundingAccountEncrypter else {
            throw ProvisioError(
                .networkRefused,
                "A replaced card's number goes to the network encrypted for its key, and none is configured; nothing was sent.")
        }
        let account: [String: FundingAccountValue] = [
            "fpan": .text(pan.unmaskedDigits), "expiry_month": .number(expiry.month), "expiry_year": .number(expiry.year),
        ]
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return try fundingAccountEncrypter.encrypt(try encoder.encode(account), contentType: "application/json")
        } catch {
            throw ProvisioError(.networkRefused, "The replaced card's number could not be encrypted for the network's key.")
        }
    }

    /// A product's profile as the connector API carries it.
    static func wire(_ profile: CardProfile) -> Components.Schemas.CardProfile {
        Components.Schemas.CardProfile(
            productId: profile.productID, name: profile.name, appLaunchUrl: profile.appLaunchURL,
            associatedApplicationIdentifiers: profile.associatedApplicationIdentifiers,
            associatedStoreIdentifiers: profile.associatedStoreIdentifiers, contactName: profile.contactName,
            supportPhone: profile.supportPhone, supportEmail: profile.supportEmail, supportUrl: profile.supportURL,
            termsUrl: profile.termsURL, termsVersion: profile.termsVersion, cardArtUrl: profile.cardArtURL)
    }

    private static let failures = WireClientFailures(
        unreachable: { _, cause in
            if let refused = cause as? ProvisioError,
                refused.code == .outboundAddressRefused || refused.code == .outboundHTTPSRequired
            {
                return ProvisioError(.networkUnavailable, "The card network's address is not allowed: \(refused.message)")
            }
            return ProvisioError(.networkUnavailable, "The card network could not be reached.")
        },
        malformed: { _ in
            ProvisioError(.networkAnswerMalformed, "The card network's answer is not the token it was asked about.")
        },
        refused: { _, status, error in
            switch status {
            case 401, 403:
                ProvisioError(.networkCredentialsRejected, "The card network refused Provisio's API key (HTTP \(status)).")
            case 500...:
                ProvisioError(.networkUnavailable, "The card network failed with HTTP \(status).")
            default:
                ProvisioError(.networkRefused, "The card network refused: \(describe(error, status: status))")
            }
        })

    /// The network's error code when it sent a well-formed one (snake_case, at most 64
    /// characters), and its status; never its message or anything else it wrote.
    static func describe(_ error: WireError.Body?, status: Int) -> String {
        guard let code = error?.code, code.utf8.count <= 64,
            code.utf8.allSatisfy({ (0x61...0x7A).contains($0) || $0 == 0x5F || (0x30...0x39).contains($0) })
        else { return "HTTP \(status)." }
        return "\(code) (HTTP \(status))."
    }
}

/// A member of the funding account's plaintext: the number as text, the expiry as numbers.
private enum FundingAccountValue: Encodable {
    case text(String)
    case number(Int)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        }
    }
}
