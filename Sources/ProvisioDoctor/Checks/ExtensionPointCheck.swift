/// Both Wallet extension points are declared, each by one target, spelt exactly as PassKit
/// looks them up; an app exists.
struct ExtensionPointCheck: DoctorCheck {
    func run(_ project: WalletProject, context: CheckContext, into output: inout CheckOutput) {
        if project.app == nil {
            output.add(
                .appMissing, file: nil, key: nil,
                message: "No app target was found: no Info.plist builds an application (CFBundlePackageType APPL).",
                fix: "Examine the folder holding the app and its extensions, the .xcodeproj or the built .app.")
        }
        // An extension with a missing or misspelt point is taken to be the Wallet extension the
        // project lacks, so that one mistake is one finding.
        var candidates = 0
        let key = "NSExtension.NSExtensionPointIdentifier"
        for target in project.targets where target.role == .otherExtension {
            guard let info = target.info else { continue }
            let file = project.display(target.infoPlistPath)
            guard let point = info[path: key]?.string, !point.isEmpty else {
                output.add(
                    .extensionPointMissing, file: file, key: key,
                    message: "\(target.label) has no NSExtensionPointIdentifier, so iOS does not know it extends Wallet.",
                    fix:
                        "Set NSExtension.NSExtensionPointIdentifier to \(WalletIdentifiers.nonUIExtensionPoint) (non-UI) or \(WalletIdentifiers.uiExtensionPoint) (UI)."
                )
                candidates += 1
                continue
            }
            let lowered = point.lowercased()
            guard lowered.contains("passkit") || lowered.contains("issuer-provisioning") || lowered.contains("issuerprovisioning")
            else { continue }
            let intended =
                lowered.contains("auth") || lowered.hasSuffix(".ui")
                ? WalletIdentifiers.uiExtensionPoint : WalletIdentifiers.nonUIExtensionPoint
            output.add(
                .extensionPointUnknown, file: file, key: key,
                message: "\(target.label) declares the extension point \"\(point)\", which is not one Wallet loads.",
                fix: "Use exactly \(intended) (extension points are case-sensitive).")
            candidates += 1
        }
        for (role, point) in [
            (ProjectTarget.Role.nonUIExtension, WalletIdentifiers.nonUIExtensionPoint),
            (.uiExtension, WalletIdentifiers.uiExtensionPoint),
        ] {
            let declaring = project.targets.filter { $0.role == role }
            if declaring.isEmpty {
                if candidates > 0 {
                    candidates -= 1
                    continue
                }
                output.add(
                    .extensionPointMissing, file: nil, key: key,
                    message:
                        "No target declares \(point): Wallet will not \(role == .nonUIExtension ? "list the app under \"From apps on your iPhone\"" : "be able to sign the cardholder in").",
                    fix: "Add an app extension target whose Info.plist sets NSExtension.NSExtensionPointIdentifier to \(point).")
            } else if declaring.count > 1 {
                for target in declaring.dropFirst() {
                    output.add(
                        .extensionPointDuplicated, file: project.display(target.infoPlistPath), key: key,
                        message: "\(target.label) declares \(point), as \(declaring[0].name) does; Wallet uses only one.",
                        fix: "Keep one extension per Wallet extension point.")
                }
            }
        }
    }
}
