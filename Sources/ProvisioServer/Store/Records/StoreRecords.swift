import Foundation
import ProvisioCore

/// A tenant: one issuer (or one issuer program) with its own cards and API keys.
public struct TenantRecord: Sendable, Equatable {
    public var id: String
    public var name: String
    public var createdAt: Date
}

/// A card as stored: the PAN only as a vault record. Each property is the column of its name in
/// snake_case, read and written through `RecordCoding`: a new column is a new property here.
public struct CardRecord: Sendable, Equatable, Codable {
    public var id: String
    public var tenantID: String
    public var customerRef: String
    public var accountRef: String?
    /// `VaultRecord.serialized`, sealed with the context `CardRecord.vaultContext`.
    public var panVaultRecord: String
    public var last4: String
    public var network: PaymentNetwork
    public var expiryMonth: Int
    public var expiryYear: Int
    public var cardholderName: String
    public var productTitle: String?
    public var cardArtURL: String?
    /// The identifier Apple Wallet shows as the pass's `primaryAccountIdentifier`.
    public var primaryAccountIdentifier: String
    public var status: CardStatus
    @EpochMilliseconds public var createdAt: Date
    @EpochMilliseconds public var updatedAt: Date
    /// `PANFingerprinter.fingerprint` of the PAN: how a card network's request finds the card.
    public var panFingerprint: String? = nil
    /// The card's product (`cprod_…`), as given at creation; nil follows the tenant's default.
    public var productID: String? = nil
    /// The cardholder's mobile number (E.164), `VaultRecord.serialized` sealed with
    /// `CardRecord.contactVaultContext(.phone, …)`; nil when the card holds none.
    public var cardholderPhoneVaultRecord: String? = nil
    /// The number's masked form, the only one ever shown (`CardholderPhone.masked`).
    public var cardholderPhoneMasked: String? = nil
    /// The cardholder's email address, sealed with `CardRecord.contactVaultContext(.email, …)`.
    public var cardholderEmailVaultRecord: String? = nil
    /// The address's masked form, the only one ever shown (`CardholderEmail.masked`).
    public var cardholderEmailMasked: String? = nil

    /// Binds a vault record to its tenant and card so it cannot be moved to another row.
    public static func vaultContext(tenantID: String, cardID: String) -> String { "card/\(tenantID)/\(cardID)" }

    /// A contact's own vault context, bound to its tenant and card like the PAN's and distinct
    /// from it and from the other contact's, so no sealed value opens in another's place.
    public static func contactVaultContext(_ kind: CardContactKind, tenantID: String, cardID: String) -> String {
        "card-\(kind.rawValue)/\(tenantID)/\(cardID)"
    }

    /// The columns a reissue (`updateCardDetails`) never writes: who the card is and whose, its
    /// number (sealed, digested, last 4), and what only other paths change (status, creation).
    /// Every other column is written from the record, so a new detail is updatable as it is.
    static let columnsFixedByReissue: Set<String> = [
        "id", "tenant_id", "customer_ref", "account_ref", "pan_vault_record", "last4", "network",
        "primary_account_identifier", "status", "created_at", "pan_fingerprint", "product_id",
    ]
}

/// One attempt to provision a card into a wallet; never holds the PAN.
public struct ProvisioningAttemptRecord: Sendable, Equatable {
    public enum Outcome: String, Sendable, Codable { case succeeded, failed }

    public var id: String
    public var tenantID: String
    public var cardID: String
    public var wallet: Wallet
    public var deviceType: DeviceType?
    public var encryptionScheme: EncryptionScheme?
    public var outcome: Outcome
    public var errorCode: String?
    public var createdAt: Date
}

/// A customer's session for the SDK, created by the issuer's backend after its own login.
public struct MobileSessionRecord: Sendable, Equatable {
    /// Public: how the issuer revokes the session. Sessions from before ids existed have one
    /// derived from their hash.
    public var id: String
    public var tokenHash: String
    public var tenantID: String
    public var customerRef: String
    public var expiresAt: Date
    public var createdAt: Date
}

/// A single-use token for one card and one wallet.
public struct ProvisionTokenRecord: Sendable, Equatable {
    public var tokenHash: String
    public var tenantID: String
    public var cardID: String
    public var wallet: Wallet
    public var expiresAt: Date
    public var usedAt: Date?
    public var createdAt: Date
}

/// What is remembered of an `Idempotency-Key`.
public struct IdempotencyRecord: Sendable, Equatable {
    public enum State: String, Sendable { case inProgress = "in_progress", completed }

    public var scope: String
    public var key: String
    public var requestHash: String
    public var state: State
    public var responseStatus: Int?
    /// The answer as a vault record (it may carry a bearer secret), never in clear.
    public var responseBody: String?
    /// The attempt that holds the key while it is in progress, and until when.
    public var leaseToken: String?
    public var leaseExpiresAt: Date?
    /// `kind:id` of what the request did, written in the same transaction as the effect.
    public var effectRef: String?
    public var createdAt: Date
}

/// One attempt's hold on an idempotency key: a random token that only that attempt knows and
/// the time after which another attempt may take the key over.
public struct IdempotencyLease: Sendable, Equatable {
    public var token: String
    public var expiresAt: Date

    public init(token: String, expiresAt: Date) {
        self.token = token
        self.expiresAt = expiresAt
    }
}

/// A page of results and the cursor for the next one.
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    public var nextCursor: String?
}

/// The `limit` of every list endpoint: 20 by default, 1 to 100.
enum PageSize {
    static let maximum = 100

    static func resolve(_ limit: Int?) throws -> Int {
        let limit = limit ?? 20
        guard (1...maximum).contains(limit) else {
            throw ProvisioError(.invalidParameter, "limit must be between 1 and \(maximum).")
        }
        return limit
    }
}
