/// `provisio doctor`'s engine: reads PATH (a folder, an .xcodeproj or a built .app), runs every
/// check, and returns the report. Synchronous and offline; `ServerProbe` is the one network part.
public struct Doctor: Sendable {
    public var limits: DoctorLimits
    /// Wallet's `appLaunchURL` from the card profile, to check against the app's URL schemes.
    public var appLaunchURL: String?

    public init(limits: DoctorLimits = DoctorLimits(), appLaunchURL: String? = nil) {
        self.limits = limits
        self.appLaunchURL = appLaunchURL
    }

    static let checks: [any DoctorCheck] = [
        ExtensionPointCheck(), PrincipalClassCheck(), BundleIdentifierCheck(), PaymentPassEntitlementCheck(),
        SharedGroupCheck.appGroup, SharedGroupCheck.keychainGroup, ProvisioConfigurationCheck(), ServerURLCheck(),
        URLSchemeCheck(), CardArtAssetCheck(),
    ]

    /// Throws `DoctorError` when PATH cannot be examined at all.
    public func examine(_ path: String) throws(DoctorError) -> DoctorReport {
        let project = try ProjectLoader(limits: limits).load(path)
        return examine(project)
    }

    /// Runs the checks on a project already read.
    public func examine(_ project: WalletProject) -> DoctorReport {
        let sources = SourceIndex(files: project.sourceFiles, maximumFileBytes: limits.maximumSourceFileBytes)
        let context = CheckContext(limits: limits, appLaunchURL: appLaunchURL, sources: sources)
        var output = CheckOutput(findings: project.findings, notes: project.notes)
        for check in Self.checks {
            check.run(project, context: context, into: &output)
        }
        if !sources.skipped.isEmpty {
            output.notes.append(
                "\(sources.skipped.count) source file(s) over \(limits.maximumSourceFileBytes) bytes were not searched for principal classes (first: \(project.display(sources.skipped[0]) ?? ""))."
            )
        }
        return DoctorReport(project: project, findings: output.findings, notes: output.notes)
    }
}
