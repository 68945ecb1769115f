/// Every bound of `mdes-issuer-outbound-openapi.yaml` on what MDES sends, per operation, and on
/// the decrypted `encryptedData`; transcribed from the document, and held equal to it by
/// `MDESFieldRulesTests`. Open enumerations carry no bound and are not listed.
enum MDESFieldRules {
    /// The request body's bounds for `operation`; nil for an operation the document lacks.
    static func request(_ operation: String) -> MDESFieldRule? { requests[operation] }

    static let requests: [String: MDESFieldRule] = [
        "authorizeService": .object(
            common.merging([
                "fundingAccountInfo": fundingAccountInfo, "tokenRequestorId": digits(11...11), "walletId": .string(1...3),
                "paymentAppInstanceId": .string(1...48), "accountIdHash": .string(1...64),
                "mobileNumberSuffix": .string(4...32), "activeTokenCount": digits(1...2), "deviceInfo": deviceInfo,
                "walletProviderDecisioningInfo": decisioningInfo, "consumerFacingEntityName": .string(1...100),
                "deviceAcceptLanguage": .string(3...3),
            ]) { $1 }),
        "requestActivationMethods": .object(
            common.merging([
                "fundingAccountInfo": fundingAccountInfo, "tokenRequestorId": digits(11...11), "walletId": .string(1...3),
                "paymentAppInstanceId": .string(1...48), "mobileNumberSuffix": .string(4...32), "deviceInfo": deviceInfo,
                "tokenRequestorDecisioningInfo": decisioningInfo, "consumerFacingEntityName": .string(1...100),
            ]) { $1 }),
        "deliverActivationCode": .object(
            common.merging([
                "tokenUniqueReference": tokenUniqueReference, "activationMethod": .object(["value": .string(1...64)]),
                "activationCode": .string(1...32), "expirationDateTime": timestamp, "deviceInfo": deviceInfo,
            ]) { $1 }),
        "validateActivationCode": .object(
            common.merging(["tokenUniqueReference": tokenUniqueReference, "activationCode": .string(1...32)]) { $1 }),
        "notifyServiceActivated": .object(
            common.merging([
                "fundingAccountInfo": fundingAccountInfo, "tokenRequestorId": digits(11...11), "walletId": .string(1...3),
                "paymentAppInstanceId": .string(1...48), "deviceInfo": deviceInfo, "accountPanSuffix": digits(4...8),
                "serviceRequestDateTime": timestamp, "tokenActivatedDateTime": timestamp,
                "numberOfActivationAttempts": .integer(0...9), "numberOfActiveTokens": .integer(0...99),
                "tokenAssuranceLevel": .integer(0...99),
            ]) { $1 }),
        "notifyTokenUpdated": .object([
            "requestId": requestID,
            "tokens": .array(
                items: .object([
                    "tokenUniqueReference": tokenUniqueReference, "tokenExpiry": digits(4...4),
                    "fundingAccountInfo": .object(["encryptedPayload": encryptedPayload]),
                ]), minItems: 1),
        ]),
        "notifySuspiciousEvents": .object([
            "requestId": requestID, "tokenUniqueReference": tokenUniqueReference, "paymentAppInstanceId": .string(1...48),
        ]),
        "getAccountInformation": .object(["requestId": requestID]),
    ]

    /// `FundingAccountPlaintext`: what `encryptedData` decrypts to.
    static let plaintext: MDESFieldRule = .object([
        "dataValidUntilTimestamp": timestamp,
        "cardAccountData": .object([
            "accountNumber": digits(9...19), "expiryMonth": twoDigits, "expiryYear": twoDigits,
            "securityCode": .string(3...3),
        ]),
        "tokenData": .object([
            "token": digits(12...19), "expiryMonth": twoDigits, "expiryYear": twoDigits, "sequenceNumber": twoDigits,
        ]),
        "paymentAccountReference": .string(29...29),
        "accountHolderData": .object([
            "accountHolderName": .string(1...27), "accountHolderEmailAddress": .string(6...320),
            "accountHolderMobilePhoneNumber": .object(["countryDialInCode": .string(1...4), "phoneNumber": .string(1...20)]),
        ]),
    ])

    // MARK: The document's shared schemas

    static let requestID: MDESFieldRule = .string(1...64)
    /// `requestId` and `correlationId`, which all but the notifications of token changes carry.
    static let common: [String: MDESFieldRule] = ["requestId": requestID, "correlationId": .string(1...14)]
    static let tokenUniqueReference: MDESFieldRule = .string(length: 1...64, pattern: .visibleASCII)
    static let timestamp: MDESFieldRule = .string(20...29)
    static let twoDigits = digits(2...2)

    static func digits(_ count: ClosedRange<Int>) -> MDESFieldRule { .string(length: nil, pattern: .digits(count)) }

    static func hex(_ length: ClosedRange<Int>) -> MDESFieldRule { .string(length: length, pattern: .hexBytes) }

    static let encryptedPayload: MDESFieldRule = .object([
        "encryptedData": hex(2...262_144), "encryptedKey": hex(32...768), "publicKeyFingerprint": hex(32...64),
        "iv": hex(24...32), "tag": hex(2...36), "aad": hex(2...36),
    ])

    static let fundingAccountInfo: MDESFieldRule = .object([
        "tokenUniqueReference": tokenUniqueReference, "panUniqueReference": .string(1...64),
        "encryptedPayload": encryptedPayload,
    ])

    static let deviceInfo: MDESFieldRule = .object([
        "deviceName": .string(1...64), "isoDeviceType": .string(1...2), "osVersion": .string(1...32),
    ])

    static let decisioningInfo: MDESFieldRule = .object([
        "recommendationStandardVersion": .string(1...64), "deviceScore": .string(1...64), "accountScore": .string(1...64),
        "phoneNumberScore": .string(1...64), "accountLifeTime": .string(1...2),
    ])
}
