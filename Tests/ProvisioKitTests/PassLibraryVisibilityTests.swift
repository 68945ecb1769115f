#if os(Linux)
    import Crypto
    import Foundation
    import PassKitStandIn
    import ProvisioCore
    import ProvisioKit
    import ProvisioSandbox
    import Testing

    /// PassKit shows an app only the payment passes it may see: a card product's passes only to
    /// the product's associated apps (`TEAMID.bundle.id`), a card without a product's to every
    /// app. The stand-in's `PKPassLibrary`, over the sandbox Wallet, holds the SDK to it, so an
    /// app that would lose sight of its cards fails here and not on a cardholder's phone.
    @Suite struct PassLibraryVisibilityTests {
        static let bankApp = "A1B2C3D4E5.com.demobank.app"
        static let otherApp = "Z9Y8X7W6V5.com.someone.else"

        /// The sandbox Wallet with a product's card on the iPhone and the Watch, and a card
        /// without a product on the iPhone, behind the stand-in's device.
        static func device() async throws -> (SandboxPassKitDevice, product: [SandboxPass], plain: SandboxPass) {
            let wallet = SandboxWallet(certificateAuthority: LiveProvisio.sandboxCA)
            // Never asked here: the passes are put in Wallet directly.
            let network = SandboxNetworkTokenService(
                wallet: wallet, issuer: IssuerConnection(baseURL: "http://127.0.0.1:1", networkKey: "unused"),
                issuerTAVPublicKey: P256.Signing.PrivateKey().publicKey)
            let apple = SandboxAppleProvisioningService(wallet: wallet, network: network)
            let profile = SandboxCardProfile(
                productID: "prod_everyday", name: "Demo Visa Everyday", appLaunchURL: "demobank://wallet",
                associatedApplicationIdentifiers: [bankApp])
            var product: [SandboxPass] = []
            for (kind, dpan) in [(SandboxDeviceKind.phone, "DPAN_P"), (.watch, "DPAN_W")] {
                product.append(
                    try await wallet.addPass(
                        on: kind, primaryAccountIdentifier: "card_product", primaryAccountNumberSuffix: "4444",
                        deviceAccountIdentifier: dpan, profile: profile))
            }
            let plain = try await wallet.addPass(
                on: .phone, primaryAccountIdentifier: "card_plain", primaryAccountNumberSuffix: "1111",
                deviceAccountIdentifier: "DPAN_PLAIN")
            let device = SandboxPassKitDevice(wallet: wallet, apple: apple, network: network)
            await device.refresh()
            return (device, product, plain)
        }

        /// What `PKPassLibrary` shows the app with `identifier`: the iPhone's and the Watch's
        /// serial numbers, and the pass found by its serial number.
        static func library(_ device: SandboxPassKitDevice, app identifier: String?, serial: String) -> (
            [String], [String], Bool
        ) {
            PassKitStandInEnvironment.$device.withValue(device) {
                PassKitStandInEnvironment.$applicationIdentifier.withValue(identifier) {
                    let library = PKPassLibrary()
                    return (
                        library.passes(of: .secureElement).map(\.serialNumber),
                        library.remoteSecureElementPasses.map(\.serialNumber),
                        library.pass(withPassTypeIdentifier: "paymentpass.com.apple", serialNumber: serial) != nil
                    )
                }
            }
        }

        @Test func theProductsAppSeesItsPassesAndOtherAppsDoNot() async throws {
            let (device, product, plain) = try await Self.device()
            let (phone, watch) = (product[0], product[1])

            let bank = Self.library(device, app: Self.bankApp, serial: phone.serialNumber)
            #expect(bank.0 == [phone.serialNumber, plain.serialNumber])
            #expect(bank.1 == [watch.serialNumber])
            #expect(bank.2)

            // Another app, one that names no identifier, or one differing only in case sees the
            // card without a product only, and cannot look the product's pass up by serial.
            for stranger in [Self.otherApp, nil, Self.bankApp.lowercased(), "com.demobank.app"] {
                let seen = Self.library(device, app: stranger, serial: phone.serialNumber)
                #expect(seen.0 == [plain.serialNumber], "\(stranger ?? "no identifier")")
                #expect(seen.1.isEmpty && !seen.2, "\(stranger ?? "no identifier")")
            }
        }

        @MainActor @Test func theSDKsWalletLibraryReadsOnlyWhatItsAppSees() async throws {
            let (device, product, plain) = try await Self.device()
            let seen = { (app: String) in
                PassKitStandInEnvironment.$device.withValue(device) {
                    PassKitStandInEnvironment.$applicationIdentifier.withValue(app) {
                        WalletLibrary(isWatchPaired: { true }).snapshot().passes.map(\.deviceAccountIdentifier).sorted()
                    }
                }
            }
            #expect(seen(Self.bankApp) == (product.map(\.deviceAccountIdentifier) + [plain.deviceAccountIdentifier]).sorted())
            #expect(seen(Self.otherApp) == [plain.deviceAccountIdentifier])
        }

        @Test func theStandInsRuleMatchesTheSandboxWallets() async throws {
            let (device, product, plain) = try await Self.device()
            for app in [Self.bankApp, Self.otherApp] {
                let sandbox = await device.wallet.passes(visibleToApplication: app).map(\.serialNumber)
                let (phone, watch, _) = Self.library(device, app: app, serial: plain.serialNumber)
                #expect(Set(phone + watch) == Set(sandbox), "\(app)")
            }
            #expect(product.allSatisfy { !$0.isVisible(toApplication: Self.otherApp) })
        }
    }
#endif
