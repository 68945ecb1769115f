import Foundation
import ProvisioCore

/// Fetches activation data (Provisio's TAV) for the token behind a pass — normally the app asks
/// its issuer's backend, which calls `POST /v1/tokens/{id}/activation {"mode": "tav"}`.
public protocol ActivationDataProvider: Sendable {
    /// The activation data as Provisio returns it (base64 text) for the pass's token.
    func activationData(for pass: WalletPassSnapshot) async throws -> String
}

/// The issuer's own closure.
public struct ClosureActivationDataProvider: ActivationDataProvider {
    public typealias Body = @Sendable (WalletPassSnapshot) async throws -> String
    private let body: Body

    public init(_ body: @escaping Body) {
        self.body = body
    }

    public func activationData(for pass: WalletPassSnapshot) async throws -> String {
        try await body(pass)
    }
}
