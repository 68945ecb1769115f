import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxGoogleWalletAPI

// TapAndPay's constants are the document's words: each side converts by the constant's name,
// and `GoogleWalletWireWordsTests` checks every case of either side has its word on the other.

extension GoogleCardNetwork {
    init(_ network: Components.Schemas.GoogleCardNetwork) throws {
        guard let value = Self(name: network.rawValue) else { throw GoogleWalletWords.missing(network.rawValue) }
        self = value
    }
}

extension Components.Schemas.GoogleCardNetwork {
    init(_ network: GoogleCardNetwork) throws {
        guard let value = Self(rawValue: network.name) else { throw GoogleWalletWords.missing(network.name) }
        self = value
    }
}

extension GoogleTokenServiceProvider {
    init(_ provider: Components.Schemas.GoogleTokenServiceProvider) throws {
        guard let value = Self(constantName: provider.rawValue) else { throw GoogleWalletWords.missing(provider.rawValue) }
        self = value
    }
}

extension Components.Schemas.GoogleTokenServiceProvider {
    init(_ provider: GoogleTokenServiceProvider) throws {
        guard let value = Self(rawValue: provider.constantName) else { throw GoogleWalletWords.missing(provider.constantName) }
        self = value
    }
}

extension Components.Schemas.GoogleTokenState {
    init(_ state: GoogleTokenState) throws {
        guard let value = Self(rawValue: state.constantName) else { throw GoogleWalletWords.missing(state.constantName) }
        self = value
    }
}

extension Components.Schemas.GoogleIdentityVerification.MethodsPayloadPayload {
    init(_ method: GoogleIdentityVerificationMethod) throws {
        guard let value = Self(rawValue: method.rawValue) else { throw GoogleWalletWords.missing(method.rawValue) }
        self = value
    }
}

extension GoogleUserAddress {
    init(_ address: Components.Schemas.GoogleUserAddress) {
        self.init(
            name: address.name, address1: address.address1, address2: address.address2, locality: address.locality,
            administrativeArea: address.administrativeArea, countryCode: address.countryCode,
            postalCode: address.postalCode, phoneNumber: address.phoneNumber)
    }
}

extension Components.Schemas.GooglePushTokenizeResult {
    init(_ result: GooglePushTokenizeResult) throws {
        self.init(
            resultCode: result.resultCode, issuerTokenId: result.issuerTokenID, tokenState: try .init(result.tokenState),
            cardSaved: result.cardResult, isBounceProvisioned: result.isBounceProvisioned)
    }
}

extension Components.Schemas.GoogleToken {
    /// TapAndPay's `TokenInfo`: the card's last four digits only.
    init(_ token: GoogleTokenInfo) throws {
        self.init(
            issuerTokenId: token.issuerTokenID, tokenState: try .init(token.tokenState), fpanLastFour: token.fpanLastFour,
            network: try .init(token.network), tokenServiceProvider: try .init(token.tokenServiceProvider),
            displayName: token.displayName, isBounceProvisioned: token.isBounceProvisioned)
    }
}

/// A constant one side has and the other lacks: a build of the sandbox whose document and
/// model disagree (the words test fails first).
enum GoogleWalletWords {
    static func missing(_ word: String) -> ProvisioError {
        ProvisioError(.sandboxInternalError, "Google Wallet's document and model disagree on a constant.")
    }
}
