import Foundation
import ProvisioDoctor

/// Writes the files Xcode would have made from the example: a project.pbxproj naming its
/// targets' Info.plists and entitlements, and a built .app with binary Info.plists and
/// executables carrying their signature's entitlements blob.
enum ProjectFixtures {
    struct Target {
        var name: String
        var productType: String
        var settings: [String: String]
    }

    static let exampleTargets = [
        Target(
            name: "IssuerApp", productType: "com.apple.product-type.application",
            settings: [
                "INFOPLIST_FILE": "$(SRCROOT)/App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/IssuerApp.entitlements",
                "PRODUCT_BUNDLE_IDENTIFIER": "com.example.issuer",
            ]),
        Target(
            name: "NonUIExtension", productType: "com.apple.product-type.app-extension",
            settings: [
                "INFOPLIST_FILE": "NonUIExtension/Info.plist",
                "CODE_SIGN_ENTITLEMENTS": "$(SRCROOT)/NonUIExtension/NonUIExtension.entitlements",
                "PRODUCT_BUNDLE_IDENTIFIER": "com.example.issuer.$(TARGET_NAME)",
            ]),
        Target(
            name: "UIExtension", productType: "com.apple.product-type.app-extension",
            settings: [
                "INFOPLIST_FILE": "UIExtension/Info.plist", "CODE_SIGN_ENTITLEMENTS": "UIExtension/UIExtension.entitlements",
                "PRODUCT_BUNDLE_IDENTIFIER": "com.example.issuer.UIExtension",
            ]),
    ]

    /// An OpenStep project.pbxproj as Xcode writes it (ids, comments, quoted values).
    static func pbxproj(_ targets: [Target]) -> String {
        var objects = ""
        var targetIDs: [String] = []
        func id(_ n: Int) -> String { String(format: "A1B2C3D4E5F6%012X", n) }
        func quoted(_ text: String) -> String { "\"\(text.replacingOccurrences(of: "\"", with: "\\\""))\"" }
        func configurations(_ base: Int, _ settings: [String: String]) -> String {
            func lines(_ settings: [String: String]) -> String {
                settings.sorted { $0.key < $1.key }.map { "\t\t\t\t\($0.key) = \(quoted($0.value));\n" }.joined()
            }
            let entries = lines(settings)
            // Debug names another entitlements file: the default configuration (Release) must win.
            var debug = settings
            if debug["CODE_SIGN_ENTITLEMENTS"] != nil { debug["CODE_SIGN_ENTITLEMENTS"] = "Debug-only.entitlements" }
            return """
                \t\t\(id(base + 1)) /* Debug */ = {
                \t\t\tisa = XCBuildConfiguration;
                \t\t\tbuildSettings = {
                \(lines(debug))\t\t\t};
                \t\t\tname = Debug;
                \t\t};
                \t\t\(id(base + 2)) /* Release */ = {
                \t\t\tisa = XCBuildConfiguration;
                \t\t\tbuildSettings = {
                \(entries)\t\t\t};
                \t\t\tname = Release;
                \t\t};
                \t\t\(id(base)) /* Build configuration list */ = {
                \t\t\tisa = XCConfigurationList;
                \t\t\tbuildConfigurations = (\(id(base + 1)), \(id(base + 2)), );
                \t\t\tdefaultConfigurationName = Release;
                \t\t};

                """
        }
        for (index, target) in targets.enumerated() {
            let base = 100 * (index + 1)
            targetIDs.append(id(base + 50))
            objects += configurations(base, target.settings)
            objects += """
                \t\t\(id(base + 50)) /* \(target.name) */ = {
                \t\t\tisa = PBXNativeTarget;
                \t\t\tbuildConfigurationList = \(id(base));
                \t\t\tname = \(target.name);
                \t\t\tproductName = \(target.name);
                \t\t\tproductType = \(quoted(target.productType));
                \t\t};

                """
        }
        objects += configurations(10, ["IPHONEOS_DEPLOYMENT_TARGET": "17.0"])
        return """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1;
            \tclasses = {
            \t};
            \tobjectVersion = 56;
            \tobjects = {
            \(objects)\t\t\(id(1)) /* Project object */ = {
            \t\t\tisa = PBXProject;
            \t\t\tbuildConfigurationList = \(id(10));
            \t\t\ttargets = (\(targetIDs.map { "\($0) /* target */" }.joined(separator: ", ")), );
            \t\t};
            \t};
            \trootObject = \(id(1)) /* Project object */;
            }

            """
    }

    static func writeProject(in folder: String, targets: [Target] = exampleTargets) throws {
        let project = folder + "/IssuerApp.xcodeproj"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        try Data(pbxproj(targets).utf8).write(to: URL(fileURLWithPath: project + "/project.pbxproj"))
    }

    // MARK: - Built app

    /// Bytes standing for a signed Mach-O: a header, filler, and the entitlements blob
    /// (magic 0xfade7171, big-endian length including the 8-byte header, XML property list).
    static func executable(entitlements: PlistValue?) throws -> Data {
        var bytes: [UInt8] = [0xCF, 0xFA, 0xED, 0xFE] + [UInt8](repeating: 0x11, count: 4096)
        // A stray magic with a bogus length first: the reader must skip it.
        bytes += [0xFA, 0xDE, 0x71, 0x71, 0xFF, 0xFF, 0xFF, 0xFF]
        if let entitlements {
            let xml = [UInt8](
                try PropertyListSerialization.data(fromPropertyList: entitlements.foundationObject, format: .xml, options: 0))
            bytes += [0xFA, 0xDE, 0x0C, 0xC0, 0, 0, 0, 20, 0, 0, 0, 1]
            bytes += [0xFA, 0xDE, 0x71, 0x71] + PNGWriter.be32(UInt32(xml.count + 8)) + xml
        }
        return Data(bytes + [UInt8](repeating: 0, count: 64))
    }

    /// Example.app from the example's plists, with build settings expanded as Xcode would.
    static func writeApp(
        from copy: ExampleCopy, at app: String, signed: Set<String> = ["IssuerApp", "NonUIExtension", "UIExtension"],
        identifiers: [String: String] = [:]
    ) throws {
        let bundles = [
            ("IssuerApp", app, "App/Info.plist", "App/IssuerApp.entitlements", "APPL"),
            (
                "NonUIExtension", app + "/PlugIns/NonUIExtension.appex", "NonUIExtension/Info.plist",
                "NonUIExtension/NonUIExtension.entitlements", "XPC!"
            ),
            (
                "UIExtension", app + "/PlugIns/UIExtension.appex", "UIExtension/Info.plist",
                "UIExtension/UIExtension.entitlements", "XPC!"
            ),
        ]
        for (name, bundle, infoFile, entitlementsFile, packageType) in bundles {
            try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
            let identifier =
                identifiers[name] ?? (name == "IssuerApp" ? "com.example.issuer" : "com.example.issuer.\(name)")
            let expand = { (value: PlistValue) -> PlistValue in expanded(value, identifier: identifier, name: name) }
            var info = expand(try copy.plist(infoFile))
            info = info.setting("CFBundlePackageType", to: .string(packageType))
            try PropertyListSerialization.data(fromPropertyList: info.foundationObject, format: .binary, options: 0)
                .write(to: URL(fileURLWithPath: bundle + "/Info.plist"))
            let entitlements = signed.contains(name) ? expand(try copy.plist(entitlementsFile)) : nil
            try executable(entitlements: entitlements).write(to: URL(fileURLWithPath: bundle + "/" + name))
        }
        // Xcode compiles the asset catalog (DefaultCardArt) into Assets.car.
        try Data("BOMStore".utf8).write(to: URL(fileURLWithPath: app + "/Assets.car"))
    }

    static func expanded(_ value: PlistValue, identifier: String, name: String) -> PlistValue {
        switch value {
        case .string(let text):
            return .string(
                text.replacingOccurrences(of: "$(AppIdentifierPrefix)", with: "ABCDE12345.")
                    .replacingOccurrences(of: "$(PRODUCT_BUNDLE_IDENTIFIER)", with: identifier)
                    .replacingOccurrences(of: "$(EXECUTABLE_NAME)", with: name)
                    .replacingOccurrences(of: "$(PRODUCT_MODULE_NAME)", with: name)
                    .replacingOccurrences(of: "$(PRODUCT_NAME)", with: name)
                    .replacingOccurrences(of: "$(DEVELOPMENT_LANGUAGE)", with: "en"))
        case .array(let items): return .array(items.map { expanded($0, identifier: identifier, name: name) })
        case .dictionary(let items): return .dictionary(items.mapValues { expanded($0, identifier: identifier, name: name) })
        default: return value
        }
    }
}
