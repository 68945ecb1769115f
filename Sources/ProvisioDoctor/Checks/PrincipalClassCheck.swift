/// Each Wallet extension names a principal class the runtime can find, of the right kind:
/// a `PKIssuerProvisioningExtensionHandler` subclass (non-UI) or a class conforming to
/// `PKIssuerProvisioningExtensionAuthorizationProviding` (UI), followed through the project's
/// sources.
struct PrincipalClassCheck: DoctorCheck {
    /// Apple classes that are certainly neither: a chain ending at one of these is wrong.
    static let plainAppleClasses: Set<String> = [
        "NSObject", "UIViewController", "UITableViewController", "UINavigationController", "UIHostingController",
        "UIResponder", "NSExtensionRequestHandling",
    ]

    func run(_ project: WalletProject, context: CheckContext, into output: inout CheckOutput) {
        let key = "NSExtension.NSExtensionPrincipalClass"
        for target in project.targets where target.role == .nonUIExtension || target.role == .uiExtension {
            guard let info = target.info else { continue }
            let file = project.display(target.infoPlistPath)
            let isUI = target.role == .uiExtension
            let requirement =
                isUI
                ? "conform to \(WalletIdentifiers.uiProtocol)" : "subclass \(WalletIdentifiers.nonUIBaseClass)"
            guard let principal = info[path: key]?.string, !principal.isEmpty else {
                if isUI, info[path: "NSExtension.NSExtensionMainStoryboard"]?.string != nil {
                    output.notes.append(
                        "\(target.name) uses a storyboard: its initial view controller's class was not checked.")
                    continue
                }
                output.add(
                    .principalClassMissing, file: file, key: key,
                    message: "\(target.label) names no NSExtensionPrincipalClass, so Wallet has nothing to instantiate.",
                    fix:
                        "Set NSExtension.NSExtensionPrincipalClass to $(PRODUCT_MODULE_NAME).YourClass, a class that must \(requirement)."
                )
                continue
            }
            let className = String(principal.split(separator: ".").last ?? Substring(principal))
            if !isUI, WalletIdentifiers.knownNonUIHandlers.contains(className) { continue }
            guard project.kind != .appBundle else { continue }
            let declarations = context.sources.declarations(of: className)
            guard !declarations.isEmpty else {
                output.add(
                    .principalClassNotFound, file: file, key: key,
                    message:
                        "\(target.label) names the principal class \(principal), but no class \(className) is declared in the project's sources.",
                    fix:
                        "Name the extension's class exactly (as $(PRODUCT_MODULE_NAME).\(className) for Swift), or add it to the extension target."
                )
                continue
            }
            let swift = declarations.filter(\.isSwift)
            if !principal.contains("."), !swift.isEmpty, !declarations.contains(where: { $0.objectiveCName == className }) {
                output.add(
                    .principalClassUnqualified, file: file, key: key,
                    message:
                        "The Swift class \(className) is named without its module, and has no @objc(\(className)): the runtime cannot find it.",
                    fix: "Set NSExtension.NSExtensionPrincipalClass to $(PRODUCT_MODULE_NAME).\(className).")
                continue
            }
            let (types, end) = context.sources.ancestry(of: className, maximumChain: context.limits.maximumClassChain)
            let satisfied =
                isUI
                ? types.contains(WalletIdentifiers.uiProtocol)
                : types.contains { WalletIdentifiers.knownNonUIHandlers.contains($0) }
            if satisfied { continue }
            // A chain ending at Apple's plain classes (or, for the UI extension, at a non-UI
            // handler) is known to be wrong; at any other class whose source is elsewhere, unknown.
            let definitive = isUI ? Self.plainAppleClasses.union(WalletIdentifiers.knownNonUIHandlers) : Self.plainAppleClasses
            if let end, !definitive.contains(end) {
                let why =
                    context.sources.declarations(of: end).isEmpty
                    ? "whose source is not in the project"
                    : "past the \(context.limits.maximumClassChain) superclasses the doctor follows"
                output.notes.append(
                    "\(target.name): \(className) inherits from \(end), \(why); whether it does \(requirement) was not checked.")
                continue
            }
            output.add(
                .principalClassWrong, file: file, key: key,
                message:
                    "\(target.label)'s principal class \(className) does not \(requirement)\(end.map { " (its chain ends at \($0))" } ?? "").",
                fix: isUI
                    ? "Make \(className) a UIViewController that conforms to \(WalletIdentifiers.uiProtocol) (ProvisioKit: ExtensionAuthorization does the work)."
                    : "Make \(className) a subclass of \(WalletIdentifiers.nonUIBaseClass) — with ProvisioKit, an empty subclass of ProvisioWalletExtensionHandler."
            )
        }
    }
}
