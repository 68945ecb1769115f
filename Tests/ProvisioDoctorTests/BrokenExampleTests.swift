import Foundation
import ProvisioDoctor
import Testing

/// One broken copy of the example per check: the doctor reports exactly the code of what was
/// broken (a portrait image is two things wrong, and says so).
@Suite struct BrokenExampleTests {
    struct Break: Sendable, CustomTestStringConvertible {
        var name: String
        var expected: Set<DoctorCode>
        var apply: @Sendable (ExampleCopy) throws -> Void
        var testDescription: String { name }
    }

    static let nonUIInfo = "NonUIExtension/Info.plist"
    static let uiInfo = "UIExtension/Info.plist"
    static let appInfo = "App/Info.plist"
    static let appEntitlements = "App/IssuerApp.entitlements"
    static let nonUIEntitlements = "NonUIExtension/NonUIExtension.entitlements"
    static let uiEntitlements = "UIExtension/UIExtension.entitlements"

    static let breaks: [Break] = [
        Break(name: "non-UI extension point removed", expected: [.extensionPointMissing]) {
            try $0.set(nonUIInfo, "NSExtension/NSExtensionPointIdentifier", nil)
        },
        Break(name: "UI extension target missing", expected: [.extensionPointMissing]) {
            try $0.delete("UIExtension")
        },
        Break(name: "UI extension point misspelt", expected: [.extensionPointUnknown]) {
            try $0.set(
                uiInfo, "NSExtension/NSExtensionPointIdentifier", .string("com.apple.PassKit.issuer-provisioning.authorisation"))
        },
        Break(name: "non-UI extension point in the wrong case", expected: [.extensionPointUnknown]) {
            try $0.set(nonUIInfo, "NSExtension/NSExtensionPointIdentifier", .string("com.apple.passkit.issuer-provisioning"))
        },
        Break(name: "two non-UI extensions", expected: [.extensionPointDuplicated]) {
            try FileManager.default.copyItem(atPath: $0.path("NonUIExtension"), toPath: $0.path("SecondNonUIExtension"))
        },
        Break(name: "no app", expected: [.appMissing]) {
            try $0.delete(appInfo)
        },
        Break(name: "principal class removed", expected: [.principalClassMissing]) {
            try $0.set(nonUIInfo, "NSExtension/NSExtensionPrincipalClass", nil)
        },
        Break(name: "non-UI principal class subclasses NSObject", expected: [.principalClassWrong]) {
            try $0.replace(
                in: "NonUIExtension/IssuerWalletExtensionHandler.swift", "ProvisioWalletExtensionHandler, @unchecked Sendable",
                with: "NSObject, @unchecked Sendable")
        },
        Break(name: "UI principal class is the non-UI handler", expected: [.principalClassWrong]) {
            try $0.set(
                uiInfo, "NSExtension/NSExtensionPrincipalClass", .string("$(PRODUCT_MODULE_NAME).IssuerWalletExtensionHandler"))
        },
        Break(name: "principal class misspelt", expected: [.principalClassNotFound]) {
            try $0.set(
                nonUIInfo, "NSExtension/NSExtensionPrincipalClass", .string("$(PRODUCT_MODULE_NAME).IssuerWalletExtensionHandlr"))
        },
        Break(name: "principal class without its module", expected: [.principalClassUnqualified]) {
            try $0.set(uiInfo, "NSExtension/NSExtensionPrincipalClass", .string("AuthorizationViewController"))
        },
        Break(name: "UI extension's entitlements file missing", expected: [.entitlementsMissing]) {
            try $0.delete(uiEntitlements)
        },
        Break(name: "payment-pass entitlement removed", expected: [.paymentPassEntitlementMissing]) {
            try $0.set(nonUIEntitlements, "com.apple.developer.payment-pass-provisioning", nil)
        },
        Break(name: "payment-pass entitlement false", expected: [.paymentPassEntitlementMissing]) {
            try $0.set(appEntitlements, "com.apple.developer.payment-pass-provisioning", .bool(false))
        },
        Break(name: "App Group removed from the UI extension", expected: [.appGroupMissing]) {
            try $0.set(uiEntitlements, "com.apple.security.application-groups", nil)
        },
        Break(name: "App Group differs in the non-UI extension", expected: [.appGroupMismatch]) {
            try $0.set(nonUIEntitlements, "com.apple.security.application-groups", .array([.string("group.com.example.other")]))
        },
        Break(name: "ProvisioExtension.AppGroup differs from the entitlements", expected: [.appGroupMismatch]) {
            try $0.set(uiInfo, "ProvisioExtension/AppGroup", .string("group.com.example.other"))
        },
        Break(name: "App Group without group. prefix", expected: [.appGroupInvalid]) {
            try $0.set(
                appEntitlements, "com.apple.security.application-groups",
                .array([.string("group.com.example.issuer"), .string("com.example.issuer")]))
        },
        Break(name: "keychain group removed from the app", expected: [.keychainGroupMissing]) {
            try $0.set(appEntitlements, "keychain-access-groups", nil)
        },
        Break(name: "keychain group differs in the UI extension", expected: [.keychainGroupMismatch]) {
            try $0.set(uiEntitlements, "keychain-access-groups", .array([.string("$(AppIdentifierPrefix)com.example.other")]))
        },
        Break(name: "ProvisioExtension removed from the UI extension", expected: [.provisioConfigMissing]) {
            try $0.set(uiInfo, "ProvisioExtension", nil)
        },
        Break(name: "ServerURL removed from the non-UI extension", expected: [.provisioConfigKeyMissing]) {
            try $0.set(nonUIInfo, "ProvisioExtension/ServerURL", nil)
        },
        Break(name: "KeychainAccessGroup not a string", expected: [.provisioConfigKeyMissing]) {
            try $0.set(appInfo, "ProvisioExtension/KeychainAccessGroup", .integer(1))
        },
        Break(name: "ServerURL differs in the non-UI extension", expected: [.provisioConfigMismatch]) {
            try $0.set(nonUIInfo, "ProvisioExtension/ServerURL", .string("https://other.example.com"))
        },
        Break(name: "ServerURL without a scheme", expected: [.serverURLInvalid]) { copy in
            for file in ExampleCopy.infoPlists {
                try copy.set(file, "ProvisioExtension/ServerURL", .string("provisio.example.com"))
            }
        },
        Break(name: "ServerURL over http", expected: [.serverURLNotHTTPS]) { copy in
            for file in ExampleCopy.infoPlists {
                try copy.set(file, "ProvisioExtension/ServerURL", .string("http://provisio.example.com"))
            }
        },
        Break(name: "ServerURL over http to a name that only looks like loopback", expected: [.serverURLNotHTTPS]) { copy in
            for file in ExampleCopy.infoPlists {
                try copy.set(file, "ProvisioExtension/ServerURL", .string("http://127.0.0.1.example.com"))
            }
        },
        Break(name: "URL scheme removed", expected: [.urlSchemeMissing]) {
            try $0.set(appInfo, "CFBundleURLTypes", nil)
        },
        Break(name: "URL scheme with an underscore", expected: [.urlSchemeInvalid]) {
            try $0.set(
                appInfo, "CFBundleURLTypes", .array([.dictionary(["CFBundleURLSchemes": .array([.string("example_bank")])])]))
        },
        Break(name: "URL scheme https", expected: [.urlSchemeInvalid]) {
            try $0.set(appInfo, "CFBundleURLTypes", .array([.dictionary(["CFBundleURLSchemes": .array([.string("https")])])]))
        },
        Break(name: "card art removed", expected: [.cardArtMissing]) {
            try $0.delete("App/Assets.xcassets/DefaultCardArt.dataset")
        },
        Break(name: "card art is a JPEG", expected: [.cardArtNotPNG]) {
            try $0.write(ExampleCopy.cardArt, Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46]))
        },
        Break(name: "card art 1000 × 631", expected: [.cardArtWrongSize]) {
            try $0.write(ExampleCopy.cardArt, PNGWriter.squaredCard(width: 1000, height: 631).data())
        },
        Break(name: "card art in portrait", expected: [.cardArtWrongSize, .cardArtNotLandscape]) {
            try $0.write(ExampleCopy.cardArt, PNGWriter.squaredCard(width: 969, height: 1536).data())
        },
        Break(name: "card art over 4 MB", expected: [.cardArtTooLarge]) {
            // Uncompressed 1536 × 969 RGB is 4,465,152 bytes of pixels.
            var noise = SystemRandomNumberGenerator()
            let bytes = (0..<256).map { _ in Int(noise.next() as UInt8) }
            try $0.write(
                ExampleCopy.cardArt, PNGWriter(width: 1536, height: 969) { x, y in [bytes[(x * 7 + y) % 256], 40, 90] }.data())
        },
        Break(name: "card art with transparent rounded corners", expected: [.cardArtRoundedCorners]) {
            let card = PNGWriter(width: 1536, height: 969, colorType: 6) { x, y in
                PNGWriter.outsideRoundedCorner(x, y, width: 1536, height: 969, radius: 57) ? [0, 0, 0, 0] : [20, 60, 120, 255]
            }
            try $0.write(ExampleCopy.cardArt, card.data())
        },
        Break(name: "card art rounded on a white matte", expected: [.cardArtRoundedCorners]) {
            let card = PNGWriter(width: 1536, height: 969) { x, y in
                PNGWriter.outsideRoundedCorner(x, y, width: 1536, height: 969, radius: 57) ? [255, 255, 255] : [20, 60, 120]
            }
            try $0.write(ExampleCopy.cardArt, card.data())
        },
        Break(name: "card art with corrupt pixel data", expected: [.cardArtUnreadable]) {
            var header = PNGWriter.be32(1536) + PNGWriter.be32(969)
            header += [8, 2, 0, 0, 0]
            let png =
                [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + PNGWriter.chunk("IHDR", header)
                + PNGWriter.chunk("IDAT", [0x78, 0x01, 0xFF, 0xFF, 0xFF]) + PNGWriter.chunk("IEND", [])
            try $0.write(ExampleCopy.cardArt, Data(png))
        },
        Break(name: "entitlements file is not a property list", expected: [.plistUnreadable]) {
            try $0.write(uiEntitlements, Data("<?xml version=\"1.0\"?><plist><dict><key>x</dict>".utf8))
        },
    ]

    @Test(arguments: breaks)
    func eachBreakIsFoundAlone(_ seeded: Break) throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        try seeded.apply(copy)
        let report = try Doctor().examine(copy.root)
        #expect(Set(report.findings.map(\.code)) == seeded.expected, "\(report.findings)")
        #expect(report.exitStatus == 1)
        for finding in report.findings {
            #expect(!finding.message.isEmpty && !finding.fix.isEmpty)
            #expect(finding.code.rawValue.hasPrefix("doctor."))
        }
    }

    @Test func findingsNameTheFileAndKey() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        try copy.set(
            Self.nonUIEntitlements, "com.apple.security.application-groups", .array([.string("group.com.example.other")]))
        let finding = try #require(try Doctor().examine(copy.root).findings.first)
        #expect(finding.file == Self.nonUIEntitlements)
        #expect(finding.key == "com.apple.security.application-groups")
        #expect(finding.message.contains("group.com.example.other"))
        #expect(finding.fix.contains("group.com.example.issuer"))
    }

    @Test func anUnreadableInfoPlistIsReported() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        try copy.write(Self.nonUIInfo, Data("not a plist".utf8))
        let findings = try Doctor().examine(copy.root).findings
        let unreadable = try #require(findings.first { $0.code == .plistUnreadable })
        #expect(unreadable.file == Self.nonUIInfo)
        // The doctor cannot tell which extension it was: the non-UI point is missing too.
        #expect(Set(findings.map(\.code)) == [.plistUnreadable, .extensionPointMissing])
    }

    @Test func theAppLaunchURLMustUseARegisteredScheme() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        #expect(try copy.codes(Doctor(appLaunchURL: "examplebank://verify?action=verify")) == [])
        #expect(try copy.codes(Doctor(appLaunchURL: "otherbank://verify")) == [.urlSchemeMismatch])
        #expect(try copy.codes(Doctor(appLaunchURL: "https://bank.example.com/verify")) == [.urlSchemeMismatch])
    }

    @Test func universalLinksStandInForAURLScheme() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        try copy.set(Self.appInfo, "CFBundleURLTypes", nil)
        try copy.set(
            Self.appEntitlements, "com.apple.developer.associated-domains", .array([.string("applinks:bank.example.com")]))
        let report = try Doctor(appLaunchURL: "https://bank.example.com/verify").examine(copy.root)
        #expect(report.findings == [])
        #expect(report.notes.contains { $0.contains("universal link") })
    }

    @Test func aLoopbackServerOverHTTPIsANoteNotAFinding() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        for file in ExampleCopy.infoPlists { try copy.set(file, "ProvisioExtension/ServerURL", .string("http://127.0.0.1:8080")) }
        let report = try Doctor().examine(copy.root)
        #expect(report.findings == [])
        #expect(report.notes.contains { $0.contains("loopback") })
    }
}
