extension SandboxWire {
    /// `POST /sandbox/v1/tokens/{ref}/events`: something the cardholder or the network does to
    /// a token, which the network reports to the issuer.
    public struct TokenEventRequest: SandboxWireRequest, Hashable {
        public enum Event: String, Codable, Sendable, Hashable, CaseIterable {
            /// The card was removed from Wallet: the token is deleted, the pass goes.
            case removedFromWallet = "removed_from_wallet"
            /// The device was reported lost: token and pass are suspended.
            case deviceLost = "device_lost"
            /// The token reached its end of life: deleted, the pass deactivated.
            case tokenExpired = "token_expired"
        }

        public var event: Event

        public init(event: Event) {
            self.event = event
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case event
        }

        public static let fieldNames = Set(CodingKeys.allCases.map(\.stringValue))
        public static let allowedValues = ["event": Event.allCases.map(\.rawValue)]
    }

    /// `POST /network/v1/tokens/{ref}/lifecycle`: the issuer (Provisio's network connector)
    /// suspends, resumes or deletes a token.
    public struct LifecycleRequest: SandboxWireRequest, Hashable {
        public var action: IssuerLifecycleAction
        /// The issuer's reason, for the network's records.
        public var reasonCode: String?

        public init(action: IssuerLifecycleAction, reasonCode: String? = nil) {
            self.action = action
            self.reasonCode = reasonCode
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case action
            case reasonCode = "reason_code"
        }

        public static let fieldNames = Set(CodingKeys.allCases.map(\.stringValue))
        public static let allowedValues = ["action": IssuerLifecycleAction.allCases.map(\.rawValue)]
    }

    /// `POST /network/v1/tokens/{ref}/activation`: the issuer activates a pending token after
    /// verifying the cardholder itself (flow 3c, customer service).
    public struct ActivationRequest: SandboxWireRequest, Hashable {
        public enum Method: String, Codable, Sendable, Hashable, CaseIterable {
            case customerService = "customer_service"
        }

        public var method: Method
        public var reasonCode: String?

        public init(method: Method = .customerService, reasonCode: String? = nil) {
            self.method = method
            self.reasonCode = reasonCode
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case method
            case reasonCode = "reason_code"
        }

        public static let fieldNames = Set(CodingKeys.allCases.map(\.stringValue))
        public static let allowedValues = ["method": Method.allCases.map(\.rawValue)]
    }
}
