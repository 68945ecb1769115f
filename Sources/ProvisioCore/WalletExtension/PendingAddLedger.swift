import Foundation

/// The adds in flight, kept by the app and its extensions in the App Group (a pure value).
///
/// Why: between Wallet taking an add request and the new pass appearing in `PKPassLibrary` there
/// are seconds to minutes; without the ledger the card would be offered again in that gap.
/// - `record(_:)` notes an add (one record per card and device; a newer one replaces it).
/// - A card is pending on a device while its record is younger than `expiry` (10 minutes by
///   default, generous on purpose); a record from the future — the clock moved back — counts for
///   at most `expiry` too, so no record can hide a card for ever.
/// - `reconciled(with:issuerCards:now:)` drops the records whose pass has appeared (attributed to
///   the card, as `CardPassMatcher` does, and live — a deactivated pass left from an earlier token
///   does not count) and the expired ones. A pass that matches only ambiguously (shared last 4)
///   does not reconcile; its record simply expires.
public struct PendingAddLedger: Codable, Hashable, Sendable {
    /// Ten minutes: far longer than an add takes, short enough to recover from one that failed.
    public static let defaultExpiry: TimeInterval = 10 * 60

    /// The adds recorded, oldest first.
    public private(set) var records: [PendingAdd]
    /// How long a record hides its card at most.
    public var expiry: TimeInterval

    public init(records: [PendingAdd] = [], expiry: TimeInterval = PendingAddLedger.defaultExpiry) {
        self.records = records
        self.expiry = expiry
    }

    /// Records `add`, replacing a record of the same card and device.
    public mutating func record(_ add: PendingAdd) {
        records.removeAll { $0.card.primaryAccountIdentifier == add.card.primaryAccountIdentifier && $0.device == add.device }
        records.append(add)
    }

    /// The ledger with `add` recorded.
    public func recording(_ add: PendingAdd) -> PendingAddLedger {
        var copy = self
        copy.record(add)
        return copy
    }

    /// Whether `record` still hides its card at `now`.
    public func isActive(_ record: PendingAdd, at now: Date) -> Bool {
        abs(now.timeIntervalSince(record.startedAt)) < expiry
    }

    /// Whether an add of the card with this primary account identifier to `device` is in flight at `now`.
    public func isPending(primaryAccountIdentifier: String, on device: WalletDevice, at now: Date) -> Bool {
        records.contains {
            $0.card.primaryAccountIdentifier == primaryAccountIdentifier && $0.device == device && isActive($0, at: now)
        }
    }

    /// The primary account identifiers pending on `device` at `now` (built once for O(1) lookups).
    public func pendingPrimaryAccountIdentifiers(on device: WalletDevice, at now: Date) -> Set<String> {
        Set(records.lazy.filter { $0.device == device && self.isActive($0, at: now) }.map(\.card.primaryAccountIdentifier))
    }

    /// The ledger without the records whose pass has appeared or that have expired at `now`.
    public func reconciled(with library: PassLibrarySnapshot, issuerCards: [CardIdentity], now: Date) -> PendingAddLedger {
        let matcher = CardPassMatcher(library: library, issuerCards: issuerCards)
        var copy = self
        copy.records = records.filter { record in
            guard isActive(record, at: now) else { return false }
            let appeared = matcher.match(record.card, on: record.device).attributedPasses.contains {
                $0.activationState != .deactivated
            }
            return !appeared
        }
        return copy
    }

    /// The bytes to write to the App Group (stable JSON).
    public func encoded() throws -> Data { try ExtensionJSON.encoder().encode(self) }

    /// Reads the App Group file; `pending_add_ledger_unreadable` if it is not a ledger.
    public static func decode(from data: Data) throws -> PendingAddLedger {
        try ExtensionJSON.decode(PendingAddLedger.self, from: data, code: .pendingAddLedgerUnreadable, what: "pending-add ledger")
    }
}
