import Foundation
import ProvisioCore

/// One token of the sandbox network: the token PAN it issued for a card on one device, and the
/// funding card's PAN and expiry it keeps to check the issuer's activation data (TAV).
///
/// Every description shows both PANs masked (`PrimaryAccountNumber` prints `•••• 1234`).
public struct NetworkToken: Sendable, Hashable, CustomStringConvertible {
    public let networkTokenRef: String
    /// The device PAN: Luhn valid, 16 digits, under the sandbox token BIN.
    public let tokenPrimaryAccountNumber: PrimaryAccountNumber
    /// The issuer's card behind the token; TAVs are signed over it, not over the token PAN.
    /// Changes when the issuer reissues the card under a new number (MDES's token update).
    public internal(set) var fundingPrimaryAccountNumber: PrimaryAccountNumber
    /// Changes when the issuer reissues the card (`updateCardDetails`).
    public internal(set) var fundingExpiry: CardExpiry
    public let deviceAccountIdentifier: String
    /// The wallet the token lives in (set once, when the network creates the token).
    public internal(set) var wallet: Wallet = .applePay
    /// The device it is on: an iPhone or Watch for Apple Wallet, the Android phone for Google
    /// Wallet (whose kind is `.phone`).
    public let device: SandboxDevice
    public let primaryAccountIdentifier: String
    public let issuerTokenID: String?
    public internal(set) var state: NetworkTokenState
    public let decision: DecisionOutcome
    public let reasons: [String]
    public let activationMethods: [String]
    /// The issuer's offers for those methods (masked contacts, the number to call), as Wallet
    /// shows them before a code is sent.
    public internal(set) var activationOffers: [SandboxActivationOffer] = []
    /// The wallet's handle for the card once it has it (never for a declined token): the pass's
    /// serial number in Apple Wallet, the issuer token id in Google Wallet.
    public internal(set) var passSerialNumber: String?
    public let createdAt: Date
    /// The card product's profile the issuer gave (its decision, then each product change).
    public internal(set) var profile: SandboxCardProfile? = nil

    public var description: String {
        "NetworkToken(ref: \(networkTokenRef), token: \(tokenPrimaryAccountNumber.masked), card: "
            + "\(fundingPrimaryAccountNumber.masked), state: \(state.rawValue), wallet: \(wallet.rawValue), "
            + "device: \(wallet == .applePay ? device.description : "\(device.kind.rawValue) \(device.identifier)"))"
    }
}
