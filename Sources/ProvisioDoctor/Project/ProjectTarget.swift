/// One target of the examined project (an app or an app extension) and what the doctor read
/// for it.
public struct ProjectTarget: Sendable, Hashable {
    public enum Role: String, Sendable, Hashable, Codable {
        case app
        case nonUIExtension = "non_ui_extension"
        case uiExtension = "ui_extension"
        /// Any other extension, including one whose extension point is missing or misspelt.
        case otherExtension = "other_extension"
    }

    public var name: String
    public var role: Role
    /// The Info.plist (absolute path); nil when the target has none the doctor could find.
    public var infoPlistPath: String?
    /// Its contents; nil when missing or unreadable (a finding says which).
    public var info: PlistValue?
    /// Where the entitlements come from: an .entitlements file, or a built app's executable.
    public var entitlementsPath: String?
    /// The entitlements; nil when none could be found or read.
    public var entitlements: PlistValue?
    /// The bundle identifier when it is known literally (a built app, or the project's build
    /// setting); nil when it is a build variable the doctor cannot expand.
    public var bundleIdentifier: String?

    public init(
        name: String, role: Role, infoPlistPath: String?, info: PlistValue?, entitlementsPath: String? = nil,
        entitlements: PlistValue? = nil, bundleIdentifier: String? = nil
    ) {
        self.name = name
        self.role = role
        self.infoPlistPath = infoPlistPath
        self.info = info
        self.entitlementsPath = entitlementsPath
        self.entitlements = entitlements
        self.bundleIdentifier = bundleIdentifier
    }

    /// The role an Info.plist gives its target: an extension by its extension point, an app when
    /// it builds an application; nil for anything else (frameworks, test bundles, watch apps).
    static func role(of info: PlistValue) -> Role? {
        if info["NSExtension"] != nil {
            switch info[path: "NSExtension.NSExtensionPointIdentifier"]?.string {
            case WalletIdentifiers.nonUIExtensionPoint: return .nonUIExtension
            case WalletIdentifiers.uiExtensionPoint: return .uiExtension
            default: return .otherExtension
            }
        }
        guard info["WKApplication"] == nil, info["WKWatchKitApp"] == nil else { return nil }
        switch info["CFBundlePackageType"]?.string {
        case "APPL", "$(PRODUCT_BUNDLE_PACKAGE_TYPE)", nil: return .app
        default: return nil
        }
    }
}

extension PlistValue {
    /// The value for a top-level key.
    public subscript(key: String) -> PlistValue? {
        dictionary?[key]
    }
}
