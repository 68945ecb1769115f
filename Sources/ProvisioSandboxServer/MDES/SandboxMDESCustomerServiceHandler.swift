import Foundation
import Logging
import OpenAPIRuntime
import ProvisioCore
import ProvisioCrypto
import ProvisioHTTP
import ProvisioSandbox
import ProvisioSandboxMDESCustomerServiceAPI

/// The sandbox's MDES Customer Service API (`mdes-customer-service-openapi.yaml`), what the
/// issuer's Provisio calls in the MDES dialect: suspend, unsuspend, delete, activate and update
/// (a reissued card) a token, and search one. Each request was already checked by `SandboxMDESGatewayMiddleware` (OAuth
/// 1.0a signature and body hash). The change goes to the network token and Wallet's pass, as in
/// the Provisio dialect; nothing is reported back through `notifyTokenUpdated`, since the issuer
/// made the change itself and MDES tells the issuer only of changes others made.
struct SandboxMDESCustomerServiceHandler: APIProtocol {
    /// Where the issuer finds this API: its `customer_service_url` is the sandbox's URL and this.
    static let basePath = "/mdes/csapi"

    let world: SandboxHTTPWorld
    /// Mastercard's private key, which opens a token update's `EncryptedAccountInformation`;
    /// nil refuses the update.
    let decrypter: MDESPayloadDecrypter?
    let logger: Logger

    static func register(
        world: SandboxHTTPWorld, decrypter: MDESPayloadDecrypter? = nil, logger: Logger, on transport: some ServerTransport
    ) throws {
        try Self(world: world, decrypter: decrypter, logger: logger).registerHandlers(
            on: transport, serverURL: URL(string: basePath)!, configuration: WireCoding.openAPIConfiguration)
    }

    func suspendToken(_ input: Operations.SuspendToken.Input) async throws -> Operations.SuspendToken.Output {
        guard case .json(let body) = input.body else { throw Self.unreadable() }
        let request = body.tokenSuspendRequest
        try await change(.suspend, request.tokenUniqueReference, reason: request.reasonCode.rawValue)
        return .ok(.init(body: .json(.init(tokenSuspendResponse: changed(request.tokenUniqueReference)))))
    }

    func unsuspendToken(_ input: Operations.UnsuspendToken.Input) async throws -> Operations.UnsuspendToken.Output {
        guard case .json(let body) = input.body else { throw Self.unreadable() }
        let request = body.tokenUnsuspendRequest
        try await change(.resume, request.tokenUniqueReference, reason: request.reasonCode.rawValue)
        return .ok(.init(body: .json(.init(tokenUnsuspendResponse: changed(request.tokenUniqueReference)))))
    }

    func deleteToken(_ input: Operations.DeleteToken.Input) async throws -> Operations.DeleteToken.Output {
        guard case .json(let body) = input.body else { throw Self.unreadable() }
        let request = body.tokenDeleteRequest
        try await change(.delete, request.tokenUniqueReference, reason: request.reasonCode.rawValue)
        return .ok(.init(body: .json(.init(tokenDeleteResponse: changed(request.tokenUniqueReference)))))
    }

    func activateToken(_ input: Operations.ActivateToken.Input) async throws -> Operations.ActivateToken.Output {
        guard case .json(let body) = input.body else { throw Self.unreadable() }
        let request = body.tokenActivateRequest
        let reference = request.tokenUniqueReference
        logger.info("MDES activate", metadata: ["ref": "\(reference)", "reason_code": "\(request.reasonCode.rawValue)"])
        _ = try await world.network.activateByIssuer(networkTokenRef: try existing(reference).networkTokenRef)
        return .ok(.init(body: .json(.init(tokenActivateResponse: changed(reference)))))
    }

    /// A reissued card: the new number and/or expiry, encrypted for Mastercard's key, go to the
    /// token and Wallet's pass as a Provisio-dialect reissue does (`updateCardDetails`).
    func updateToken(_ input: Operations.UpdateToken.Input) async throws -> Operations.UpdateToken.Output {
        guard case .json(let body) = input.body else { throw Self.unreadable() }
        let request = body.tokenUpdateRequest
        guard let decrypter else {
            throw ProvisioError(.sandboxMdesRequestInvalid, "The sandbox's MDES holds no Mastercard encryption key.")
        }
        let account = try MDESNewAccount(request.encryptedAccountInformation, decrypter: decrypter)
        let reference = request.tokenUniqueReference
        // Never the number: its last four digits, as a pass shows them.
        logger.info(
            "MDES token update",
            metadata: [
                "ref": "\(reference)", "expiry": "\(account.expiry?.slashed ?? "unchanged")",
                "new_pan": "\(account.primaryAccountNumber?.masked ?? "unchanged")",
            ])
        _ = try await world.network.updateCardDetails(
            CardDetails(expiry: account.expiry), newPrimaryAccountNumber: account.primaryAccountNumber,
            networkTokenRef: try existing(reference).networkTokenRef)
        let changed = changed(reference).token.map { [$0] } ?? []
        return .ok(.init(body: .json(.init(tokenUpdateResponse: .init(tokens: .init(token: changed))))))
    }

    func searchTokens(_ input: Operations.SearchTokens.Input) async throws -> Operations.SearchTokens.Output {
        guard case .json(let body) = input.body else { throw Self.unreadable() }
        let request = body.searchRequest
        let excludeDeleted = request.excludeDeletedIndicator?.value1 == ._true
        guard let token = await world.network.token(networkTokenRef: request.tokenUniqueReference),
            !(excludeDeleted && token.state.isFinal)
        else {
            return .ok(.init(body: .json(.init(searchResponse: .init(accounts: .init(account: []))))))
        }
        let expiry = MDESSearchCodes.mmyy(token.fundingExpiry)
        let found = Components.Schemas.FoundToken(
            tokenUniqueReference: token.networkTokenRef, tokenSuffix: token.tokenPrimaryAccountNumber.last4,
            expirationDate: expiry, currentStatusCode: .init(value2: MDESSearchCodes.status(token.state)),
            suspenders: token.state == .suspended ? .init(suspender: [.init(value2: "I")]) : nil,
            tokenRequestorId: "50110030273", walletId: "103")
        let account = Components.Schemas.SearchResponseBody.SearchResponsePayload.AccountsPayload.AccountPayloadPayload(
            accountPanSuffix: token.fundingPrimaryAccountNumber.last4, expirationDate: expiry, tokens: .init(token: [found]))
        return .ok(.init(body: .json(.init(searchResponse: .init(accounts: .init(account: [account]))))))
    }

    // MARK: - Helpers

    private func change(_ action: IssuerLifecycleAction, _ reference: String, reason: String) async throws {
        logger.info(
            "MDES issuer change", metadata: ["ref": "\(reference)", "action": "\(action.rawValue)", "reason_code": "\(reason)"])
        _ = try await world.network.applyIssuerAction(action, networkTokenRef: try existing(reference).networkTokenRef)
    }

    private func existing(_ reference: String) async throws -> NetworkToken {
        guard let token = await world.network.token(networkTokenRef: reference) else {
            throw ProvisioError(.sandboxNetworkTokenUnknown, "MDES has no token with this TokenUniqueReference.")
        }
        return token
    }

    private func changed(_ reference: String) -> Components.Schemas.ChangedTokenWrapper {
        .init(token: .init(tokenUniqueReference: reference, commentId: "sbx" + String(UUID().uuidString.prefix(8)).lowercased()))
    }

    private static func unreadable() -> ProvisioError {
        ProvisioError(.sandboxMdesRequestInvalid, "The body is not the documented JSON.")
    }
}
