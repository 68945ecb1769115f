import ProvisioCore

/// What the network sends the issuer when it asks for a decision on a new token
/// (`POST /v1/network/token-requests`). Holds the funding PAN: every description shows it masked.
public struct IssuerDecisionRequest: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    public var primaryAccountNumber: PrimaryAccountNumber
    public var expiry: CardExpiry
    public var wallet: Wallet
    public var deviceType: DeviceType?
    public var networkTokenRef: String
    public var tokenLast4: String?
    public var deviceAccountIdentifier: String?
    public var risk: RiskAssessment

    public init(
        primaryAccountNumber: PrimaryAccountNumber, expiry: CardExpiry, wallet: Wallet = .applePay,
        deviceType: DeviceType?, networkTokenRef: String, tokenLast4: String?, deviceAccountIdentifier: String?,
        risk: RiskAssessment
    ) {
        self.primaryAccountNumber = primaryAccountNumber
        self.expiry = expiry
        self.wallet = wallet
        self.deviceType = deviceType
        self.networkTokenRef = networkTokenRef
        self.tokenLast4 = tokenLast4
        self.deviceAccountIdentifier = deviceAccountIdentifier
        self.risk = risk
    }

    public var description: String {
        "IssuerDecisionRequest(card: \(primaryAccountNumber.masked), ref: \(networkTokenRef), wallet: \(wallet.rawValue))"
    }

    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
