import Crypto
import Foundation
import Logging
import ProvisioCore
import ProvisioCrypto
import ProvisioOutbound

/// Everything a running server holds: the store and the services built on it. Built once at
/// start by `ServerAssembly`, or directly by tests with their own clock and keys.
public struct ServerServices: Sendable {
    public let handle: any DatabaseHandle
    public let store: any ProvisioStore
    public let access: AccessService
    public let audit: AuditService
    public let cards: CardService
    public let provisioning: ProvisioningService
    public let metrics: ProvisioMetrics
    public let clock: any TimeSource
    public let vault: PANVault
    public let webhookStore: any WebhookStore
    public let webhookPublisher: WebhookPublisher
    public let webhooks: WebhookService
    public let tokens: TokenService
    public let cardChanges: CardChangeService
    /// A card replaced with a new number, and the card changes its tokens' networks still owe.
    public let cardReplacement: CardReplacementService
    public let tokenChanges: TokenChangeOutbox
    /// Where wallets and networks reach this server (`PROVISIO_PUBLIC_URL`; by default the
    /// address it listens on): the card art URLs it gives out start here. Shared by every copy
    /// of the services, so a server listening on port 0 can set it once it knows its port.
    public let publicURL = Locked("http://127.0.0.1:8080")
    let cardProductStore: any CardProductStore
    /// Card products, their art and profile.
    public var cardProducts: CardProductService {
        CardProductService(
            store: cardProductStore, cards: cards, tokens: tokens, clock: clock, publicURL: publicURL.value)
    }
    /// The cardholder's own controls over their tokens (the mobile routes).
    public let cardholderTokens: CardholderTokenService
    /// The support console's operators and what support searches.
    public let operators: OperatorService
    public let search: SupportSearch
    /// The console's cookies are `Secure` (https only) unless the server runs in development.
    public var secureConsoleCookies = true
    /// A TLS-terminating proxy is declared in front: answers carry HSTS as over the server's own
    /// TLS, and sign-in limits count the client address the proxy appends to `X-Forwarded-For`.
    public var behindTLSProxy = false
    public let otpRelay: OTPRelay
    public let settings: SettingsService
    /// The tenants' keys for Google's opaque payment card.
    public let googlePay: GooglePayKeyService
    /// Keys the digest of idempotent requests (their bodies may hold a PAN).
    public let requestDigester: KeyedDigester
    /// Keys the MDES listener's digests (request ids, bodies, activation codes).
    public var mdesDigester: KeyedDigester
    /// The guarded client for every call to an address a tenant chose.
    public let outbound: OutboundHTTPClient
    /// Signs and sends webhooks through `outbound` (the outbox worker, the decision hook, the OTP relay).
    let webhookSender: HTTPWebhookSender
    /// How long an idempotency claim holds without renewal (after a crash, a retry waits this long).
    public var idempotencyLease: Duration = .seconds(30)

    /// - Parameter network: the card network's connector API for tenants that set none of
    ///   their own (`--network-url`; the sandbox in development).
    /// - Parameter outbound: where webhooks and tenants' network connectors may go
    ///   (`OutboundPolicy.production` refuses loopback, private addresses and plain http).
    public init(
        handle: any DatabaseHandle, keys: ProvisioKeys, chainValidator: any AppleChainValidating,
        networkKey: P256.KeyAgreement.PublicKey, networkKeyID: String, network: NetworkEndpoint? = nil,
        outbound: OutboundHTTPClient = OutboundHTTPClient(policy: .development),
        passwordHasher: any PasswordHasher = BcryptPasswordHasher(), clock: any TimeSource
    ) {
        let store = SQLProvisioStore(handle: handle)
        let metrics = ProvisioMetrics()
        let vault = PANVault(keyring: keys.keyring)
        let cards = CardService(store: store, vault: vault, fingerprinter: keys.panFingerprinter, clock: clock)
        let publisher = WebhookPublisher(store: store, clock: clock)
        // Each collaborator once, shared by the services that need it.
        let tavSigner = TAVSigner(privateKey: keys.tavSigningKey)
        let webhookSender = HTTPWebhookSender(client: outbound)
        self.vault = vault
        self.requestDigester = keys.requestDigester
        self.mdesDigester = keys.panFingerprinter.derivedDigester(purpose: "mdes-issuer-outbound")
        self.webhookStore = store
        self.webhookPublisher = publisher
        self.outbound = outbound
        self.webhooks = WebhookService(store: store, vault: vault, publisher: publisher, outbound: outbound, clock: clock)
        self.webhookSender = webhookSender
        self.otpRelay = OTPRelay(store: store, vault: vault, sender: webhookSender, clock: clock)
        let connectors = NetworkConnectorResolver(
            store: store, vault: vault, serverDefault: network, outbound: outbound, clock: clock,
            fundingAccountEncrypter: JWEEncrypter(recipient: networkKey, keyID: networkKeyID))
        let settings = SettingsService(store: store, vault: vault, connectors: connectors, clock: clock)
        self.settings = settings
        let googlePay = GooglePayKeyService(store: store, vault: vault, clock: clock)
        self.googlePay = googlePay
        self.tokens = TokenService(
            store: store, cards: cards, fingerprinter: keys.panFingerprinter,
            tavSigner: tavSigner, publisher: publisher, settings: settings,
            decisionHook: IssuerDecisionHook(store: store, vault: vault, sender: webhookSender, clock: clock),
            connectors: connectors, clock: clock, products: store)
        let tokenChanges = TokenChangeOutbox(
            store: store, tokenStore: store, cards: cards, connectors: connectors, clock: clock)
        self.tokenChanges = tokenChanges
        self.cardChanges = CardChangeService(cards: cards, tokens: tokens, outbox: tokenChanges)
        self.cardReplacement = CardReplacementService(cards: cards, tokens: tokens, store: store, outbox: tokenChanges)
        self.cardProductStore = store
        self.cardholderTokens = CardholderTokenService(cards: cards, tokens: tokens)
        self.operators = OperatorService(store: store, hasher: passwordHasher, clock: clock)
        self.search = SupportSearch(store: store)
        self.handle = handle
        self.store = store
        self.access = AccessService(store: store, clock: clock)
        self.audit = AuditService(store: store)
        self.cards = cards
        self.metrics = metrics
        self.clock = clock
        self.provisioning = ProvisioningService(
            store: store, cards: cards,
            applePayloads: ApplePayloadBuilder(validator: chainValidator, tavSigner: tavSigner),
            pushData: WalletPushDataBuilder(networkKey: networkKey, networkKeyID: networkKeyID),
            googlePay: googlePay, metrics: metrics, clock: clock)
    }

    /// The worker that sends again what a token's network did not take (every server process
    /// runs one).
    public func tokenChangeWorker(logger: Logger) -> TokenChangeRetryWorker {
        TokenChangeRetryWorker(outbox: tokenChanges, logger: logger)
    }

    /// The outbox worker for this process (every server process runs one); by default it
    /// sends through the server's guarded outbound client.
    public func webhookWorker(
        sender: (any WebhookSender)? = nil, policy: WebhookDeliveryPolicy = .standard, logger: Logger
    ) -> WebhookDeliveryWorker {
        WebhookDeliveryWorker(
            store: webhookStore, vault: vault, sender: sender ?? webhookSender, clock: clock,
            policy: policy, logger: logger)
    }
}
