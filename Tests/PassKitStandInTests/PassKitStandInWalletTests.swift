#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioCore
    import Testing

    /// A handler offering one fully configured entry and recording the configuration Wallet
    /// passes to `generate…`.
    final class ConfigurationRecordingHandler: PKIssuerProvisioningExtensionHandler, @unchecked Sendable {
        // @unchecked: adds only a `Locked` record.
        private let received = Locked<[String]>([])
        var configurations: [String] { received.value }

        override func passEntries() async -> [PKIssuerProvisioningExtensionPassEntry] {
            // A PNG header: the stand-in reads width and height only.
            var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            for value in [1536, 969] { png += withUnsafeBytes(of: UInt32(value).bigEndian, Array.init) }
            guard let art = UIImage(data: Data(png + [8, 6, 0, 0, 0, 0, 0, 0, 0]))?.cgImage,
                let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: .RSA_V2)
            else { return [] }
            configuration.cardholderName = "Jane Appleseed"
            configuration.primaryAccountSuffix = "4242"
            configuration.localizedDescription = "Kit Gold"
            configuration.primaryAccountIdentifier = "pai-1"
            configuration.paymentNetwork = .masterCard
            let entry = PKIssuerProvisioningExtensionPaymentPassEntry(
                identifier: "phone:card_1", title: "Kit Gold", art: art, addRequestConfiguration: configuration)
            return [entry].compactMap { $0 }
        }

        override func generateAddPaymentPassRequestForPassEntryWithIdentifier(
            _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration, certificateChain certificates: [Data],
            nonce: Data, nonceSignature: Data
        ) async -> PKAddPaymentPassRequest? {
            let seen = [
                identifier, configuration.encryptionScheme.rawValue, configuration.cardholderName ?? "-",
                configuration.primaryAccountSuffix ?? "-", configuration.localizedDescription ?? "-",
                configuration.primaryAccountIdentifier ?? "-", configuration.paymentNetwork?.rawValue ?? "-",
                "\(certificates.count) certificates",
            ]
            received.withLock { $0.append(seen.joined(separator: " ")) }
            let request = PKAddPaymentPassRequest()
            request.encryptedPassData = Data([1])
            request.activationData = Data([2])
            request.wrappedKey = Data([3])
            return request
        }
    }

    /// A device that plays Wallet's extension add: canned sessions, answers recorded.
    final class ExtensionAddDevice: PassKitStandInDevice, Sendable {
        let canAddPaymentPasses = true
        let isPassLibraryAvailable = true
        let requestTimeout = Duration.seconds(20)
        private let log = Locked<[String]>([])
        var calls: [String] { log.value }

        func secureElementPasses(remote: Bool) -> [PassKitStandInPass] { [] }
        func canAddSecureElementPass(primaryAccountIdentifier: String) -> Bool { true }
        func activate(serialNumber: String, activationData: Data) async throws -> PassKitStandInPass {
            throw NSError(domain: PKPassKitErrorDomain, code: 1)
        }
        func beginAdd(_ request: PassKitStandInAddRequest) async throws -> PassKitStandInAddSession? { nil }
        func beginExtensionAdd(_ request: PassKitStandInAddRequest, remote: Bool) async throws -> PassKitStandInAddSession {
            log.withLock { $0.append("begin \(request.encryptionScheme) remote=\(remote)") }
            return PassKitStandInAddSession(
                id: "s1", certificates: [Data([0]), Data([1])], nonce: Data([2]), nonceSignature: Data([3]), isRemote: remote)
        }
        func finishAdd(_ session: PassKitStandInAddSession, response: PassKitStandInAddResponse) async throws
            -> PassKitStandInPass
        {
            log.withLock { $0.append("finish wrappedKey=\(response.wrappedKey != nil)") }
            return PassKitStandInPass(
                serialNumber: "serial-1", primaryAccountIdentifier: "pai-1", primaryAccountNumberSuffix: "4242",
                deviceAccountIdentifier: "dai-1", activationState: .activated, isRemote: session.isRemote, deviceName: "iPhone")
        }
    }

    /// The stand-in's Wallet hands the extension the entry's configuration, whole, with the
    /// session's certificate chain, and forwards the answer to Apple through the device.
    @Suite struct PassKitStandInWalletTests {
        @Test func theExtensionGetsTheEntrysConfigurationAndTheAnswerReachesTheDevice() async throws {
            let device = ExtensionAddDevice()
            let handler = ConfigurationRecordingHandler()
            let wallet = PassKitStandInWallet(device: device)
            let entry = try #require(try await wallet.entries(of: handler, remote: false).first)
            #expect(entry.identifier == "phone:card_1" && entry.title == "Kit Gold" && !entry.isRemote)
            #expect(entry.artWidth == 1536 && entry.artHeight == 969)
            #expect(entry.request?.encryptionScheme == "RSA_V2")

            let pass = try await wallet.add(entry, through: handler)
            #expect(pass.serialNumber == "serial-1")
            #expect(
                handler.configurations == [
                    "phone:card_1 RSA_V2 Jane Appleseed 4242 Kit Gold pai-1 MasterCard 2 certificates"
                ])
            #expect(device.calls == ["begin RSA_V2 remote=false", "finish wrappedKey=true"])
            // Nothing offered on the Watch: the base form answers an empty list.
            #expect(try await wallet.entries(of: handler, remote: true).isEmpty)
        }

        @Test func aDeviceWithoutTheExtensionFlowRefusesTheAdd() async throws {
            let handler = ConfigurationRecordingHandler()
            let entry = try #require(
                try await PassKitStandInWallet(device: ExtensionAddDevice()).entries(of: handler, remote: false).first)
            await #expect(throws: NSError.self) {
                _ = try await PassKitStandInWallet(device: CannedDevice()).add(entry, through: handler)
            }
            #expect(handler.configurations.isEmpty)
        }

        @Test func aHandlerThatOffersNothingIsShownWithNothingAvailable() async {
            // The base class's answers, within the limit (the clock is never the issue here:
            // Wallet's limit is only what a late answer runs into).
            let visibility = await PassKitStandInWallet(
                device: ExtensionAddDevice(),
                limits: PassKitStandInWalletLimits(status: .seconds(60), entries: .seconds(60), request: .seconds(60))
            ).visibility(of: PKIssuerProvisioningExtensionHandler())
            #expect(
                visibility
                    == .shown(requiresAuthentication: false, passEntriesAvailable: false, remotePassEntriesAvailable: false))
        }
    }
#endif
