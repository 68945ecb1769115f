import Foundation
import ProvisioDoctor
import Testing

/// The same example, reached through an .xcodeproj and as a built .app.
@Suite struct ProjectKindTests {
    @Test func theExampleThroughAnXcodeProjectIsClean() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        try ProjectFixtures.writeProject(in: copy.root)
        // Through the folder (one .xcodeproj inside), the .xcodeproj, and its project.pbxproj.
        for path in [copy.root, copy.root + "/IssuerApp.xcodeproj", copy.root + "/IssuerApp.xcodeproj/project.pbxproj"] {
            let report = try Doctor().examine(path)
            #expect(report.kind == .xcodeproj)
            #expect(report.findings == [], "\(report.findings)")
            #expect(report.targets.map(\.role) == [.app, .nonUIExtension, .uiExtension])
            // The default configuration (Release) is read, not Debug.
            #expect(report.targets.first?.entitlements == "App/IssuerApp.entitlements")
        }
    }

    @Test func theProjectsBuildSettingsAreChecked() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        var targets = ProjectFixtures.exampleTargets
        targets[2].settings["PRODUCT_BUNDLE_IDENTIFIER"] = "com.example.wallet.UIExtension"
        targets[1].settings["CODE_SIGN_ENTITLEMENTS"] = nil
        try ProjectFixtures.writeProject(in: copy.root, targets: targets)
        let findings = try Doctor().examine(copy.root).findings
        #expect(Set(findings.map(\.code)) == [.bundleIdentifierNotPrefixed, .entitlementsMissing])
        let identifier = try #require(findings.first { $0.code == .bundleIdentifierNotPrefixed })
        #expect(identifier.file == "IssuerApp.xcodeproj/project.pbxproj")
        #expect(identifier.key == "UIExtension.PRODUCT_BUNDLE_IDENTIFIER")
        #expect(findings.first { $0.code == .entitlementsMissing }?.fix.contains("CODE_SIGN_ENTITLEMENTS") == true)
    }

    @Test func anExtensionTargetWithoutNSExtensionIsStillAnExtension() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        try copy.set("UIExtension/Info.plist", "NSExtension", nil)
        try ProjectFixtures.writeProject(in: copy.root)
        #expect(try copy.codes() == [.extensionPointMissing])
    }

    @Test func aBuiltAppIsClean() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        let app = copy.base + "/Example.app"
        try ProjectFixtures.writeApp(from: copy, at: app)
        let report = try Doctor().examine(app)
        #expect(report.kind == .appBundle)
        #expect(report.findings == [], "\(report.findings)")
        #expect(report.targets.map(\.role) == [.app, .nonUIExtension, .uiExtension])
        #expect(report.targets.first?.entitlements == "IssuerApp")
        #expect(report.notes.contains { $0.contains("no sources") })
        #expect(report.notes.contains { $0.contains("Assets.car") })
    }

    @Test func aBuiltAppsIdentifiersAndSignaturesAreChecked() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        let app = copy.base + "/Example.app"
        try ProjectFixtures.writeApp(
            from: copy, at: app, signed: ["IssuerApp", "UIExtension"], identifiers: ["UIExtension": "com.example.UIExtension"])
        let findings = try Doctor().examine(app).findings
        #expect(Set(findings.map(\.code)) == [.bundleIdentifierNotPrefixed, .entitlementsMissing])
        #expect(findings.first { $0.code == .entitlementsMissing }?.file == "PlugIns/NonUIExtension.appex/Info.plist")
    }

    @Test func aSimulatorBuildsArchivedEntitlementsAreRead() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        let app = copy.base + "/Example.app"
        try ProjectFixtures.writeApp(from: copy, at: app, signed: ["NonUIExtension", "UIExtension"])
        // Xcode writes the entitlements it signed with, build settings expanded.
        let entitlements = ProjectFixtures.expanded(
            try copy.plist("App/IssuerApp.entitlements"), identifier: "com.example.issuer", name: "IssuerApp")
        try PropertyListSerialization.data(fromPropertyList: entitlements.foundationObject, format: .xml, options: 0)
            .write(to: URL(fileURLWithPath: app + "/archived-expanded-entitlements.xcent"))
        let report = try Doctor().examine(app)
        #expect(report.findings == [], "\(report.findings)")
        #expect(report.targets.first?.entitlements == "archived-expanded-entitlements.xcent")
    }
}
