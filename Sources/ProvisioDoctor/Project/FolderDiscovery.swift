import Foundation

/// Finds the targets in a folder of sources, the way the example (and most projects) lay them
/// out: each target's Info.plist with its .entitlements next to it.
struct FolderDiscovery {
    let limits: DoctorLimits

    /// Keys only an application's Info.plist has; they tell the app from a framework's plist,
    /// which uses `$(PRODUCT_BUNDLE_PACKAGE_TYPE)` too.
    static let appKeys = [
        "LSRequiresIPhoneOS", "UIApplicationSceneManifest", "UILaunchScreen", "UILaunchStoryboardName",
        "UIMainStoryboardFile", "CFBundleURLTypes", WalletIdentifiers.provisioDictionary, "UIRequiredDeviceCapabilities",
    ]

    func discover(_ root: String) throws(DoctorError) -> WalletProject {
        let walk = try FileWalker(limits: limits).walk(root)
        var loader = PlistLoader(limits: limits, root: root)
        var notes: [String] = []
        if !walk.tooDeep.isEmpty {
            notes.append(
                "\(walk.tooDeep.count) folder(s) deeper than \(limits.maximumDepth) levels were not examined (first: \(loader.display(walk.tooDeep[0])))."
            )
        }
        let plists = walk.files.filter {
            let name = ($0 as NSString).lastPathComponent
            return (name == "Info.plist" || name.hasSuffix("-Info.plist")) && !$0.contains(".xcassets/")
        }
        guard !plists.isEmpty else {
            throw DoctorError(
                .inputUnsupported,
                "No Info.plist below \(root): point the doctor at the folder holding the app and its extensions.")
        }
        var targets: [ProjectTarget] = []
        var apps: [(target: ProjectTarget, score: Int)] = []
        for path in plists {
            let folder = (path as NSString).deletingLastPathComponent
            let name = (folder as NSString).lastPathComponent
            guard let info = loader.load(path) else { continue }
            guard let role = ProjectTarget.role(of: info) else { continue }
            var target = ProjectTarget(name: name, role: role, infoPlistPath: path, info: info)
            if let entitlements = Self.entitlementsFile(for: folder, files: walk.files) {
                target.entitlementsPath = entitlements
                target.entitlements = loader.load(entitlements)
            }
            if role == .app {
                let score = Self.appKeys.filter { info[$0] != nil }.count
                if score > 0 || info["CFBundlePackageType"]?.string == "APPL" { apps.append((target, score)) }
            } else {
                targets.append(target)
            }
        }
        // The app is the application plist with the most app-only keys; others (a second app,
        // a demo) are named in the notes.
        let ranked = apps.sorted { $0.score > $1.score }
        if let app = ranked.first {
            targets.insert(app.target, at: 0)
            for other in ranked.dropFirst() {
                notes.append("Another app's Info.plist was not examined: \(loader.display(other.target.infoPlistPath ?? "")).")
            }
        }
        return WalletProject(
            kind: .folder, root: root, targets: targets,
            sourceFiles: walk.files.filter(Self.isSource), cardArt: walk.files.filter(Self.isCardArt),
            hasCompiledAssets: walk.files.contains { $0.hasSuffix("/Assets.car") }, findings: loader.findings, notes: notes)
    }

    /// The .entitlements beside the Info.plist (the one named after the folder when there are
    /// several), else `<Folder>.entitlements` in the parent folder.
    static func entitlementsFile(for folder: String, files: [String]) -> String? {
        let name = (folder as NSString).lastPathComponent
        let beside = files.filter { ($0 as NSString).deletingLastPathComponent == folder && $0.hasSuffix(".entitlements") }
        if beside.count == 1 { return beside[0] }
        if let named = beside.first(where: { ($0 as NSString).lastPathComponent == name + ".entitlements" }) {
            return named
        }
        if let first = beside.first { return first }
        let parent = (folder as NSString).deletingLastPathComponent + "/" + name + ".entitlements"
        return files.contains(parent) ? parent : nil
    }

    static func isSource(_ path: String) -> Bool {
        path.hasSuffix(".swift") || path.hasSuffix(".m") || path.hasSuffix(".h")
    }

    /// A PNG in an asset-catalog set, or a loose PNG, whose name says it is card art
    /// ("DefaultCardArt", "card-art", "card_art" …).
    static func isCardArt(_ path: String) -> Bool {
        guard path.lowercased().hasSuffix(".png") else { return false }
        let normalized = { (text: String) in text.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " } }
        let file = normalized((path as NSString).lastPathComponent)
        let set = normalized(((path as NSString).deletingLastPathComponent as NSString).lastPathComponent)
        let inSet = set.hasSuffix(".imageset") || set.hasSuffix(".dataset")
        return file.contains("cardart") || (inSet && set.contains("cardart"))
    }
}
