/// Each extension's bundle identifier starts with the app's and a dot (iOS refuses to install an
/// app whose embedded extension does not). Checked only where the identifiers are literal: a
/// built app, or a project's build settings.
struct BundleIdentifierCheck: DoctorCheck {
    func run(_ project: WalletProject, context: CheckContext, into output: inout CheckOutput) {
        guard let appIdentifier = project.app?.bundleIdentifier else { return }
        for target in project.targets where target.role != .app {
            guard let identifier = target.bundleIdentifier, !identifier.hasPrefix(appIdentifier + ".") else { continue }
            output.add(
                .bundleIdentifierNotPrefixed,
                file: project.display(project.projectFile ?? target.infoPlistPath),
                key: project.projectFile != nil ? "\(target.name).PRODUCT_BUNDLE_IDENTIFIER" : "CFBundleIdentifier",
                message: "\(target.label)'s bundle identifier \(identifier) does not start with the app's, \(appIdentifier).",
                fix: "Name it \(appIdentifier).\(target.name).")
        }
    }
}
