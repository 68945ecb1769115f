import Foundation
import ProvisioCore
import ProvisioCrypto

/// The cardholder's contacts on the card: each sealed by the vault under its own context (bound
/// to tenant and card), beside its masked form, the only one any answer, offer, webhook or log
/// shows.
extension CardService {
    /// Seals the contacts given at creation into the new card.
    func sealContacts(phone: CardholderPhone?, email: CardholderEmail?, into card: inout CardRecord) throws {
        if let phone {
            card.cardholderPhoneVaultRecord = try seal(phone.value, .phone, of: card)
            card.cardholderPhoneMasked = phone.masked
        }
        if let email {
            card.cardholderEmailVaultRecord = try seal(email.value, .email, of: card)
            card.cardholderEmailMasked = email.masked
        }
    }

    /// Applies an update's contact changes and answers the fields that really changed (for the
    /// audit line, which names fields, never values): the same value again changes nothing.
    func applyContactChanges(
        phone: CardContactChange<CardholderPhone>?, email: CardContactChange<CardholderEmail>?, to card: inout CardRecord
    ) throws -> [String] {
        var fields: [String] = []
        switch phone {
        case .replace(let phone):
            if try contact(.phone, of: card) != phone.value {
                card.cardholderPhoneVaultRecord = try seal(phone.value, .phone, of: card)
                card.cardholderPhoneMasked = phone.masked
                fields.append("cardholder_phone")
            }
        case .remove:
            if card.cardholderPhoneVaultRecord != nil {
                (card.cardholderPhoneVaultRecord, card.cardholderPhoneMasked) = (nil, nil)
                fields.append("cardholder_phone")
            }
        case nil: break
        }
        switch email {
        case .replace(let email):
            if try contact(.email, of: card) != email.value {
                card.cardholderEmailVaultRecord = try seal(email.value, .email, of: card)
                card.cardholderEmailMasked = email.masked
                fields.append("cardholder_email")
            }
        case .remove:
            if card.cardholderEmailVaultRecord != nil {
                (card.cardholderEmailVaultRecord, card.cardholderEmailMasked) = (nil, nil)
                fields.append("cardholder_email")
            }
        case nil: break
        }
        return fields
    }

    /// The contact in clear, out of the vault (nil when the card holds none): only for what must
    /// reach the cardholder or a network in the network's own masking (MDES), never for display.
    public func contact(_ kind: CardContactKind, of card: CardRecord) throws -> String? {
        let sealed = kind == .phone ? card.cardholderPhoneVaultRecord : card.cardholderEmailVaultRecord
        guard let sealed else { return nil }
        let data = try vault.openSecret(
            try VaultRecord(serialized: sealed),
            context: CardRecord.contactVaultContext(kind, tenantID: card.tenantID, cardID: card.id))
        return String(decoding: data, as: UTF8.self)
    }

    private func seal(_ value: String, _ kind: CardContactKind, of card: CardRecord) throws -> String {
        try vault.seal(
            secret: Data(value.utf8), context: CardRecord.contactVaultContext(kind, tenantID: card.tenantID, cardID: card.id)
        ).serialized
    }
}
