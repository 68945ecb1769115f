import ProvisioCore
import ProvisioHTTP
import ProvisioSandbox
import ProvisioSandboxAPI

extension WireDialect {
    /// The sandbox's wire: every malformed request is `sandbox_invalid_request` (a value outside
    /// a field's vocabulary listing the words it takes), an unknown path or method
    /// `sandbox_route_not_found`, a missing or malformed key `sandbox_unauthorized`.
    static let sandbox = WireDialect(
        invalidJSON: .sandboxInvalidRequest, duplicateKey: .sandboxInvalidRequest, invalidRequest: .sandboxInvalidRequest,
        unknownField: .sandboxInvalidRequest, invalidParameter: .sandboxInvalidRequest,
        payloadTooLarge: .sandboxPayloadTooLarge, requestTimeout: .sandboxRequestTimeout,
        routeNotFound: .sandboxRouteNotFound, methodNotAllowed: .sandboxRouteNotFound,
        missingCredentials: .sandboxUnauthorized, internalError: .sandboxInternalError,
        // No handler drains a refused body: Hummingbird keeps the connection as it is.
        closesUnreadConnections: false,
        valueRefusal: { field in
            if field == "kind" || field == "device" { return deviceRefusal() }
            return vocabulary[field].map {
                ProvisioError(.sandboxInvalidRequest, "The field '\(field)' must be one of \($0.joined(separator: ", ")).")
            }
        },
        parameterRefusal: { error, _ in
            // Samsung Wallet's `{device}` is its phone or watch.
            if SandboxSamsungWalletHandler.deviceOperationIDs.contains(error.operationID) {
                return SandboxSamsungWalletHandler.deviceRefusal()
            }
            // The only parameters that can be unreadable are the device in these operations' path
            // or query; every other one is a string.
            return [Operations.BeginAdd.id, Operations.ListPasses.id].contains(error.operationID) ? deviceRefusal() : nil
        },
        // An armoured OpenPGP key (the issuer's, registered with Google Wallet) is the one text
        // with line breaks on this wire.
        multilineFields: ["public_key"])

    /// The words each body field with a vocabulary takes, as the documents list them.
    private static let vocabulary: [String: [String]] = [
        "scheme": Components.Schemas.EncryptionScheme.allCases.map(\.rawValue),
        "wallet_recommendation": Components.Schemas.DecisionOutcome.allCases.map(\.rawValue),
        "event": Components.Schemas.TokenEventRequest.EventPayload.allCases.map(\.rawValue),
    ].merging(SandboxConnectorHandler.vocabulary) { own, _ in own }
        .merging(SandboxSamsungWalletHandler.vocabulary) { own, _ in own }
        .merging(SandboxGoogleWalletHandler.vocabulary) { own, _ in own }

    private static func deviceRefusal() -> ProvisioError {
        ProvisioError(
            .sandboxInvalidRequest,
            "The device must be one of \(Components.Schemas.DeviceKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    }
}
