import Foundation

/// Finds the targets of an .xcodeproj from its project.pbxproj (an OpenStep property list):
/// each native target's product type, and from its build settings (the default configuration,
/// over the project's) `INFOPLIST_FILE`, `CODE_SIGN_ENTITLEMENTS` and `PRODUCT_BUNDLE_IDENTIFIER`.
/// Sources and card art are found by walking the folder the project sits in.
struct XcodeProjectDiscovery {
    let limits: DoctorLimits

    static let applicationType = "com.apple.product-type.application"
    static let extensionType = "com.apple.product-type.app-extension"

    func discover(_ projectPath: String) throws(DoctorError) -> WalletProject {
        let pbxproj = projectPath + "/project.pbxproj"
        let sourceRoot = (projectPath as NSString).deletingLastPathComponent
        let document: PlistValue
        do {
            document = try PropertyListReader(maximumBytes: limits.maximumProjectFileBytes).read(pbxproj).value
        } catch {
            switch error {
            case .tooLarge(let count, let limit):
                throw DoctorError(
                    .inputTooLarge, "\(pbxproj) is \(count) bytes; the doctor reads project files up to \(limit) bytes.")
            case .unreadable(let reason):
                throw DoctorError(.inputUnsupported, "\(pbxproj) cannot be read: \(reason).")
            }
        }
        guard let objects = document["objects"]?.dictionary, let rootID = document["rootObject"]?.string,
            let project = objects[rootID], project["isa"]?.string == "PBXProject"
        else {
            throw DoctorError(.inputUnsupported, "\(pbxproj) has no PBXProject root object.")
        }
        let projectSettings = Self.settings(of: project, objects: objects)
        var loader = PlistLoader(limits: limits, root: sourceRoot)
        var notes: [String] = []
        var targets: [ProjectTarget] = []
        for targetID in project["targets"]?.strings ?? [] {
            guard let target = objects[targetID], target["isa"]?.string == "PBXNativeTarget",
                let name = target["name"]?.string
            else { continue }
            let productType = target["productType"]?.string
            guard productType == Self.applicationType || productType == Self.extensionType else { continue }
            let settings = projectSettings.merging(Self.settings(of: target, objects: objects)) { $1 }
            let resolve = { (value: String?) in Self.expand(value, target: name, settings: settings, sourceRoot: sourceRoot) }

            var info: PlistValue?
            var infoPath: String?
            if let file = resolve(settings["INFOPLIST_FILE"]) {
                infoPath = Self.absolute(file, sourceRoot: sourceRoot)
                info = loader.load(infoPath!)
            } else if settings["INFOPLIST_FILE"] != nil {
                notes.append("Target \(name): INFOPLIST_FILE uses a build setting the doctor cannot expand.")
            } else if settings["GENERATE_INFOPLIST_FILE"] == "YES" {
                // Xcode builds the Info.plist from INFOPLIST_KEY_* settings; NSExtension,
                // CFBundleURLTypes and ProvisioExtension cannot be set that way.
                var generated: [String: PlistValue] = [:]
                for (key, value) in settings where key.hasPrefix("INFOPLIST_KEY_") {
                    generated[String(key.dropFirst("INFOPLIST_KEY_".count))] = .string(value)
                }
                info = .dictionary(generated)
                notes.append(
                    "Target \(name) has a generated Info.plist (GENERATE_INFOPLIST_FILE): only its INFOPLIST_KEY_* settings were read."
                )
            }
            // An extension target whose Info.plist has no NSExtension is still an extension.
            var role = ProjectTarget.Role.app
            if productType == Self.extensionType {
                let declared = info.flatMap(ProjectTarget.role(of:))
                role = declared == nil || declared == .app ? .otherExtension : declared!
            }
            var projectTarget = ProjectTarget(
                name: name, role: role, infoPlistPath: infoPath, info: info,
                bundleIdentifier: resolve(settings["PRODUCT_BUNDLE_IDENTIFIER"]))
            if let entitlements = resolve(settings["CODE_SIGN_ENTITLEMENTS"]) {
                let path = Self.absolute(entitlements, sourceRoot: sourceRoot)
                projectTarget.entitlementsPath = path
                projectTarget.entitlements = loader.load(path)
            }
            targets.append(projectTarget)
        }
        guard !targets.isEmpty else {
            throw DoctorError(.inputUnsupported, "\(projectPath) has no application or app-extension target.")
        }
        targets.sort { ($0.role == .app ? 0 : 1, $0.name) < ($1.role == .app ? 0 : 1, $1.name) }
        let walk = try FileWalker(limits: limits).walk(sourceRoot)
        if !walk.tooDeep.isEmpty {
            notes.append(
                "\(walk.tooDeep.count) folder(s) deeper than \(limits.maximumDepth) levels were not searched for sources and card art."
            )
        }
        return WalletProject(
            kind: .xcodeproj, root: sourceRoot, targets: targets, sourceFiles: walk.files.filter(FolderDiscovery.isSource),
            cardArt: walk.files.filter(FolderDiscovery.isCardArt), findings: loader.findings, notes: notes,
            projectFile: pbxproj)
    }

    /// A target's (or the project's) build settings in its default configuration (Release when
    /// none is named).
    static func settings(of object: PlistValue, objects: [String: PlistValue]) -> [String: String] {
        guard let listID = object["buildConfigurationList"]?.string, let list = objects[listID] else { return [:] }
        let configurations = (list["buildConfigurations"]?.strings ?? []).compactMap { objects[$0] }
        let wanted = list["defaultConfigurationName"]?.string ?? "Release"
        guard let configuration = configurations.first(where: { $0["name"]?.string == wanted }) ?? configurations.first,
            let settings = configuration["buildSettings"]?.dictionary
        else { return [:] }
        // Array-valued settings hold search paths and flags, none of which the doctor reads.
        return settings.compactMapValues(\.string)
    }

    /// Expands the build settings the doctor knows; nil when the value is missing, empty or
    /// still holds a setting it cannot expand.
    static func expand(_ value: String?, target: String, settings: [String: String], sourceRoot: String) -> String? {
        guard var text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        let productName = settings["PRODUCT_NAME"].flatMap { $0.contains("$") ? nil : $0 } ?? target
        let known = [
            "SRCROOT": sourceRoot, "PROJECT_DIR": sourceRoot, "SOURCE_ROOT": sourceRoot, "TARGET_NAME": target,
            "PRODUCT_NAME": productName, "PRODUCT_NAME:rfc1034identifier": Self.rfc1034(productName),
            "inherited": "",
        ]
        for (name, replacement) in known {
            text = text.replacingOccurrences(of: "$(\(name))", with: replacement)
            text = text.replacingOccurrences(of: "${\(name)}", with: replacement)
        }
        text = text.trimmingCharacters(in: .whitespaces)
        return text.isEmpty || text.contains("$(") || text.contains("${") ? nil : text
    }

    static func rfc1034(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "-" })
    }

    static func absolute(_ path: String, sourceRoot: String) -> String {
        path.hasPrefix("/") ? path : (sourceRoot as NSString).appendingPathComponent(path)
    }
}
