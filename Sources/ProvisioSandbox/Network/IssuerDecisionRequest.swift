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

    /// The JSON body Provisio's network API takes; the only place the PAN leaves in clear.
    var wire: Wire {
        Wire(
            pan: primaryAccountNumber.unmaskedDigits, expiryMonth: expiry.month, expiryYear: expiry.year,
            wallet: wallet.rawValue, deviceType: deviceType?.rawValue, networkTokenRef: networkTokenRef,
            tokenLast4: tokenLast4, deviceAccountIdentifier: deviceAccountIdentifier,
            risk: risk)
    }

    struct Wire: Encodable {
        var pan: String
        var expiryMonth: Int
        var expiryYear: Int
        var wallet: String
        var deviceType: String?
        var networkTokenRef: String
        var tokenLast4: String?
        var deviceAccountIdentifier: String?
        var risk: RiskAssessment

        enum CodingKeys: String, CodingKey {
            case pan
            case expiryMonth = "expiry_month"
            case expiryYear = "expiry_year"
            case wallet
            case deviceType = "device_type"
            case networkTokenRef = "network_token_ref"
            case tokenLast4 = "token_last4"
            case deviceAccountIdentifier = "device_account_identifier"
            case risk
        }
    }
}
