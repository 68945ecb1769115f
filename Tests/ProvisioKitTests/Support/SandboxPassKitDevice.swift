#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioCore
    import ProvisioCrypto
    import ProvisioSandbox

    /// The PassKit stand-in's device backed by the sandbox: the wallet's pass libraries, its add
    /// sessions (real certificates, nonce and secure-element signature) and Apple's provisioning
    /// service, which opens the payload and hands it to the sandbox network.
    final class SandboxPassKitDevice: PassKitStandInDevice, Sendable {
        /// What the simulated cardholder does in PassKit's sheet.
        enum Choice: Sendable { case add(SandboxDeviceKind), cancel }

        let wallet: SandboxWallet
        let apple: SandboxAppleProvisioningService
        let network: SandboxNetworkTokenService
        let canAddPaymentPasses: Bool
        let requestTimeout: Duration
        private struct State {
            var cached: [PassKitStandInPass] = []
            var choice: Choice = .add(.phone)
            var handlerCalls: [String: Int] = [:]
            var requests: [PassKitStandInAddRequest] = []
        }

        private let state = Locked(State())
        /// PassKit's `PKPassKitError.Code` values (PKError.h) for the errors this device reports.
        static let invalidDataError = 1
        static let unknownError = -1

        init(
            wallet: SandboxWallet, apple: SandboxAppleProvisioningService, network: SandboxNetworkTokenService,
            canAddPaymentPasses: Bool = true,
            requestTimeout: Duration = .seconds(20)
        ) {
            self.wallet = wallet
            self.apple = apple
            self.network = network
            self.canAddPaymentPasses = canAddPaymentPasses
            self.requestTimeout = requestTimeout
        }

        var isPassLibraryAvailable: Bool { true }

        func choose(_ choice: Choice) { state.withLock { $0.choice = choice } }

        /// How many times the app called the request handler, per session.
        var requestHandlerCalls: [String: Int] { state.value.handlerCalls }

        /// The request configurations PassKit was given, in order.
        var addRequests: [PassKitStandInAddRequest] { state.value.requests }

        /// Reloads the pass libraries from the sandbox wallet (PassKit's reads are synchronous).
        func refresh() async {
            let passes = await wallet.passes().map(Self.map)
            state.withLock { $0.cached = passes }
        }

        func secureElementPasses(remote: Bool) -> [PassKitStandInPass] {
            state.value.cached.filter { $0.isRemote == remote }
        }

        func canAddSecureElementPass(primaryAccountIdentifier: String) -> Bool {
            let kinds: [SandboxDeviceKind] = wallet.hasPairedWatch ? [.phone, .watch] : [.phone]
            let cached = state.value.cached
            return kinds.contains { kind in
                !cached.contains { $0.primaryAccountIdentifier == primaryAccountIdentifier && $0.isRemote == kind.isRemote }
            }
        }

        func activate(serialNumber: String, activationData: Data) async throws -> PassKitStandInPass {
            guard let token = await network.allTokens().first(where: { $0.passSerialNumber == serialNumber }) else {
                throw NSError(domain: PKPassKitErrorDomain, code: Self.invalidDataError)
            }
            _ = try await network.verifyActivationData(
                networkTokenRef: token.networkTokenRef, activationData: activationData.base64EncodedString())
            await refresh()
            guard let pass = await wallet.pass(serialNumber: serialNumber) else {
                throw NSError(domain: PKPassKitErrorDomain, code: Self.unknownError)
            }
            return Self.map(pass)
        }

        func beginAdd(_ request: PassKitStandInAddRequest) async throws -> PassKitStandInAddSession? {
            let choice = state.withLock { state in
                state.requests.append(request)
                return state.choice
            }
            guard case .add(let kind) = choice else { return nil }
            let scheme = try EncryptionScheme(wireName: request.encryptionScheme)
            let session = try await wallet.beginAdd(
                on: kind, scheme: scheme, primaryAccountIdentifier: request.primaryAccountIdentifier)
            return PassKitStandInAddSession(
                id: session.id, certificates: session.certificates, nonce: session.nonce, nonceSignature: session.nonceSignature,
                isRemote: kind.isRemote)
        }

        /// Wallet's add from the extension: the entry's device, no sheet (no cardholder choice).
        func beginExtensionAdd(_ request: PassKitStandInAddRequest, remote: Bool) async throws -> PassKitStandInAddSession {
            state.withLock { $0.requests.append(request) }
            let kind: SandboxDeviceKind = remote ? .watch : .phone
            let scheme = try EncryptionScheme(wireName: request.encryptionScheme)
            let session = try await wallet.beginAdd(
                on: kind, scheme: scheme, primaryAccountIdentifier: request.primaryAccountIdentifier)
            return PassKitStandInAddSession(
                id: session.id, certificates: session.certificates, nonce: session.nonce, nonceSignature: session.nonceSignature,
                isRemote: remote)
        }

        func finishAdd(_ session: PassKitStandInAddSession, response: PassKitStandInAddResponse) async throws
            -> PassKitStandInPass
        {
            guard let stored = await wallet.session(id: session.id) else {
                throw NSError(domain: PKPassKitErrorDomain, code: Self.invalidDataError)
            }
            let wire: [String: String] = [
                "encryptedPassData": response.encryptedPassData?.base64EncodedString() ?? "",
                "activationData": response.activationData?.base64EncodedString() ?? "",
            ]
            var answer = try JSONDecoder().decode(ApplePayloadResponse.self, from: JSONSerialization.data(withJSONObject: wire))
            answer.ephemeralPublicKey = response.ephemeralPublicKey?.base64EncodedString()
            answer.wrappedKey = response.wrappedKey?.base64EncodedString()
            let submission = try await apple.submit(sessionID: session.id, response: answer, scheme: stored.scheme)
            await refresh()
            guard let identifier = submission.primaryAccountIdentifier,
                let pass = await wallet.pass(primaryAccountIdentifier: identifier, on: stored.device.kind)
            else { throw NSError(domain: PKPassKitErrorDomain, code: Self.unknownError) }
            return Self.map(pass)
        }

        func requestHandlerCalled(for session: PassKitStandInAddSession) {
            state.withLock { $0.handlerCalls[session.id, default: 0] += 1 }
        }

        static func map(_ pass: SandboxPass) -> PassKitStandInPass {
            let state: PassKitStandInActivationState =
                switch pass.activationState {
                case .activated: .activated
                case .requiresActivation: .requiresActivation
                case .activating: .activating
                case .suspended: .suspended
                case .deactivated: .deactivated
                }
            return PassKitStandInPass(
                serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier,
                primaryAccountIdentifier: pass.primaryAccountIdentifier,
                primaryAccountNumberSuffix: pass.primaryAccountNumberSuffix,
                deviceAccountIdentifier: pass.deviceAccountIdentifier, activationState: state, isRemote: pass.isRemote,
                deviceName: pass.isRemote ? "Apple Watch" : "iPhone",
                associatedApplicationIdentifiers: pass.profile?.associatedApplicationIdentifiers)
        }
    }
#endif
