/// One check of the Wallet setup. Each reads the `WalletProject` and appends what it finds;
/// none touches the file system or the network, so each is tested on examples alone.
protocol DoctorCheck: Sendable {
    func run(_ project: WalletProject, context: CheckContext, into output: inout CheckOutput)
}

/// What every check may need besides the project.
struct CheckContext: Sendable {
    var limits: DoctorLimits
    /// Wallet's `appLaunchURL` from the card profile (`--app-launch-url`), when given.
    var appLaunchURL: String?
    /// The project's classes, indexed once for the principal-class check.
    var sources: SourceIndex
}

/// Findings, and notes on what could not be verified.
struct CheckOutput: Sendable {
    var findings: [DoctorFinding] = []
    var notes: [String] = []

    mutating func add(
        _ code: DoctorCode, _ severity: DoctorFinding.Severity = .error, file: String?, key: String?, message: String,
        fix: String
    ) {
        // Messages often start with a target's label ("the app (…)"): a sentence starts capitalized.
        let sentence = message.prefix(1).uppercased() + message.dropFirst()
        findings.append(DoctorFinding(code, severity: severity, file: file, key: key, message: sentence, fix: fix))
    }
}

extension ProjectTarget {
    /// How a finding names the target: "the app", "the non-UI extension (NonUIExtension)" …
    var label: String {
        switch role {
        case .app: "the app (\(name))"
        case .nonUIExtension: "the non-UI Wallet extension (\(name))"
        case .uiExtension: "the UI Wallet extension (\(name))"
        case .otherExtension: "the extension \(name)"
        }
    }
}
