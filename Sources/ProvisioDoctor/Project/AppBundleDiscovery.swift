import Foundation

/// Finds the targets of a built .app: its Info.plist (binary, as Xcode writes it), each
/// `PlugIns/*.appex/Info.plist`, and the entitlements each executable was signed with (or, for
/// a simulator build, `archived-expanded-entitlements.xcent`). A built app has no sources, so
/// the principal classes are not checked, and card art compiled into Assets.car cannot be read.
struct AppBundleDiscovery {
    let limits: DoctorLimits

    func discover(_ appPath: String) throws(DoctorError) -> WalletProject {
        var loader = PlistLoader(limits: limits, root: appPath)
        let manager = FileManager.default
        guard manager.fileExists(atPath: appPath + "/Info.plist") else {
            throw DoctorError(.inputUnsupported, "\(appPath) has no Info.plist: it is not a built iOS app.")
        }
        var findings: [DoctorFinding] = []
        var targets: [ProjectTarget] = []
        var bundles = [appPath]
        let plugIns = appPath + "/PlugIns"
        let extensions = ((try? manager.contentsOfDirectory(atPath: plugIns)) ?? []).filter { $0.hasSuffix(".appex") }
        bundles += extensions.sorted().map { plugIns + "/" + $0 }
        for (index, bundle) in bundles.enumerated() {
            let name = ((bundle as NSString).lastPathComponent as NSString).deletingPathExtension
            let infoPath = bundle + "/Info.plist"
            let info = loader.load(infoPath)
            var role: ProjectTarget.Role = index == 0 ? .app : .otherExtension
            if index > 0, let declared = info.flatMap(ProjectTarget.role(of:)), declared != .app { role = declared }
            var target = ProjectTarget(
                name: name, role: role, infoPlistPath: infoPath, info: info,
                bundleIdentifier: info?["CFBundleIdentifier"]?.string)
            let (path, entitlements, finding) = readEntitlements(bundle: bundle, info: info, loader: &loader)
            target.entitlementsPath = path
            target.entitlements = entitlements
            if let finding { findings.append(finding) }
            targets.append(target)
        }
        let walk = try FileWalker(limits: limits).walk(appPath)
        return WalletProject(
            kind: .appBundle, root: appPath, targets: targets, cardArt: walk.files.filter(FolderDiscovery.isCardArt),
            hasCompiledAssets: walk.files.contains { $0.hasSuffix("/Assets.car") }, findings: loader.findings + findings,
            notes: ["A built app has no sources: the principal classes' types were not checked."])
    }

    private func readEntitlements(bundle: String, info: PlistValue?, loader: inout PlistLoader) -> (
        String?, PlistValue?, DoctorFinding?
    ) {
        if let executable = info?["CFBundleExecutable"]?.string, !executable.contains("/") {
            let path = bundle + "/" + executable
            switch BoundedFile.read(path, limit: limits.maximumExecutableBytes) {
            case .success(let data):
                if let entitlements = SignatureEntitlements.find(in: data, maximumPlistBytes: limits.maximumPlistBytes) {
                    return (path, entitlements, nil)
                }
            case .failure(.tooLarge(let count, let limit)):
                return (
                    path, nil,
                    DoctorFinding(
                        .fileTooLarge, severity: .warning, file: loader.display(path), key: nil,
                        message:
                            "The executable is \(count) bytes; the doctor reads executables up to \(limit) bytes, so its entitlements were not checked.",
                        fix: "Check the entitlements with `codesign -d --entitlements - \(executable)` on a Mac.")
                )
            case .failure(.unreadable):
                break
            }
        }
        let archived = bundle + "/archived-expanded-entitlements.xcent"
        if FileManager.default.fileExists(atPath: archived) {
            return (archived, loader.load(archived), nil)
        }
        return (nil, nil, nil)
    }
}
