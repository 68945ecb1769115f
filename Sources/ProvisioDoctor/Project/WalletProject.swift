/// What the doctor found at PATH: the targets, the sources to look principal classes up in,
/// the card art, and what it noticed while reading.
public struct WalletProject: Sendable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A folder of sources (Info.plists and .entitlements next to each other).
        case folder
        /// An .xcodeproj, read through its project.pbxproj.
        case xcodeproj
        /// A built .app folder.
        case appBundle = "app"
    }

    public var kind: Kind
    /// The examined path (absolute, standardized).
    public var root: String
    public var targets: [ProjectTarget]
    /// Swift and Objective-C sources (absolute paths); empty for a built app.
    public var sourceFiles: [String]
    /// Card art PNGs (absolute paths).
    public var cardArt: [String]
    /// Whether a compiled asset catalog (Assets.car, which the doctor cannot read) is present.
    public var hasCompiledAssets: Bool
    /// Findings made while reading (unreadable or oversized files).
    public var findings: [DoctorFinding]
    /// What could not be verified, and why.
    public var notes: [String]
    /// The project.pbxproj, for an .xcodeproj (where the build settings are).
    public var projectFile: String?

    public init(
        kind: Kind, root: String, targets: [ProjectTarget], sourceFiles: [String] = [], cardArt: [String] = [],
        hasCompiledAssets: Bool = false, findings: [DoctorFinding] = [], notes: [String] = [], projectFile: String? = nil
    ) {
        self.kind = kind
        self.root = root
        self.targets = targets
        self.sourceFiles = sourceFiles
        self.cardArt = cardArt
        self.hasCompiledAssets = hasCompiledAssets
        self.findings = findings
        self.notes = notes
        self.projectFile = projectFile
    }

    public var app: ProjectTarget? { targets.first { $0.role == .app } }

    /// The app and the two Wallet extensions, those that exist.
    public var walletTargets: [ProjectTarget] {
        targets.filter { [.app, .nonUIExtension, .uiExtension].contains($0.role) }
    }

    /// `path` relative to the examined path when it is inside it.
    public func display(_ path: String?) -> String? {
        guard let path else { return nil }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
