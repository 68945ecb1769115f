import Foundation
import ProvisioCore
import ProvisioSandboxMDESIssuerAPI

// The bodies the sandbox's MDES sends, built from the network's values. Card and token numbers
// go only into the encrypted payload.

extension SandboxMDESIssuerConnection {
    func authorizeServiceRequest(_ request: IssuerDecisionRequest, record: MDESTokenRecord, now: Date) throws
        -> Components.Schemas.AuthorizeServiceRequest
    {
        let plaintext = MDESFundingPlaintext(
            dataValidUntilTimestamp: MDESTimestamp.string(now.addingTimeInterval(MDESTimestamp.payloadLifetime)),
            source: "ACCOUNT_ADDED_VIA_APPLICATION",
            cardAccountData: .init(
                accountNumber: request.primaryAccountNumber.unmaskedDigits, expiryMonth: Self.twoDigits(request.expiry.month),
                expiryYear: Self.twoDigits(request.expiry.year)),
            accountHolderData: .init(
                accountHolderEmailAddress: cardholder.email,
                accountHolderMobilePhoneNumber: .init(
                    countryDialInCode: cardholder.countryDialInCode, phoneNumber: cardholder.phoneNumber)))
        return Components.Schemas.AuthorizeServiceRequest(
            requestId: requestID(), services: [.init(value1: .digitization)],
            fundingAccountInfo: .init(
                tokenUniqueReference: request.networkTokenRef, encryptedPayload: try seal(plaintext)),
            correlationId: record.correlationID, tokenType: .init(value1: .embeddedSe),
            tokenRequestorId: record.wallet.tokenRequestorID, walletId: record.wallet.walletID,
            deviceInfo: Self.deviceInfo(record),
            walletProviderDecisioningInfo: Self.decisioningInfo(request.risk))
    }

    func notifyServiceActivatedRequest(_ token: NetworkToken, record: MDESTokenRecord?, now: Date) throws
        -> Components.Schemas.NotifyServiceActivatedRequest
    {
        let plaintext = MDESFundingPlaintext(
            dataValidUntilTimestamp: MDESTimestamp.string(now.addingTimeInterval(MDESTimestamp.payloadLifetime)),
            tokenData: .init(
                token: token.tokenPrimaryAccountNumber.unmaskedDigits, expiryMonth: Self.twoDigits(token.fundingExpiry.month),
                expiryYear: Self.twoDigits(token.fundingExpiry.year)))
        let formFactor = record?.formFactor ?? (token.device.kind.deviceType == .watch ? "WATCH" : "PHONE")
        let wallet = record?.wallet ?? MDESWalletIdentity(wallet: token.wallet, formFactor: formFactor)
        return Components.Schemas.NotifyServiceActivatedRequest(
            requestId: requestID(), services: [.init(value1: .digitization)],
            fundingAccountInfo: .init(tokenUniqueReference: token.networkTokenRef, encryptedPayload: try seal(plaintext)),
            correlationId: record?.correlationID ?? correlationID(), tokenRequestorId: wallet.tokenRequestorID,
            walletId: wallet.walletID, tokenType: .init(value1: .embeddedSe),
            deviceInfo: .init(formFactor: .init(value2: formFactor), osName: .init(value2: wallet.osName)),
            accountPanSuffix: token.fundingPrimaryAccountNumber.last4,
            serviceRequestDateTime: record?.requestedAt ?? MDESTimestamp.string(token.createdAt),
            tokenActivatedDateTime: MDESTimestamp.string(now),
            decision: .init(value1: token.decision == .approve ? .approved : .requireAdditionalAuthentication))
    }

    static func deviceInfo(_ record: MDESTokenRecord) -> Components.Schemas.DeviceInfo {
        .init(formFactor: .init(value2: record.formFactor), osName: .init(value2: record.wallet.osName))
    }

    /// The network's risk in the wallet's terms: scores as the strings "1"–"5", the wallet's
    /// recommendation as MDES words.
    static func decisioningInfo(_ risk: RiskAssessment) -> Components.Schemas.WalletDecisioningInfo {
        let recommendation: Components.Schemas.Recommendation.Value1Payload =
            switch risk.walletRecommendation {
            case .approve: .approved
            case .requireVerification: .requireAdditionalAuthentication
            case .decline: .declined
            }
        return .init(
            recommendedDecision: .init(value1: recommendation), recommendationStandardVersion: "2",
            deviceScore: String(risk.deviceScore), accountScore: String(risk.accountScore))
    }

    func seal(_ plaintext: MDESFundingPlaintext) throws -> Components.Schemas.EncryptedPayload {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let envelope = try encryptor.seal(try encoder.encode(plaintext))
        typealias Payload = Components.Schemas.EncryptedPayload
        return Payload(
            encryptedData: .init(value1: envelope.encryptedData), encryptedKey: .init(value1: envelope.encryptedKey),
            publicKeyFingerprint: .init(value1: envelope.publicKeyFingerprint),
            oaepHashingAlgorithm: envelope.oaepHashingAlgorithm.flatMap(Payload.OaepHashingAlgorithmPayload.init(rawValue:)),
            iv: .init(value1: envelope.iv),
            algorithmCipherMode: Payload.AlgorithmCipherModePayload(rawValue: envelope.algorithmCipherMode),
            tag: envelope.tag.map(Payload.TagPayload.init(value1:)), aad: envelope.aad.map(Payload.AadPayload.init(value1:)))
    }

    static func twoDigits(_ value: Int) -> String {
        let last = value % 100
        return last < 10 ? "0\(last)" : "\(last)"
    }

    /// A token's expiry as MDES writes it, MMYY.
    static func mmyy(_ expiry: CardExpiry) -> String { twoDigits(expiry.month) + twoDigits(expiry.year) }
}
