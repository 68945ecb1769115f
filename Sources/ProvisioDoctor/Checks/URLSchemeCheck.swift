import Foundation

/// The app registers a URL scheme for Wallet's "open the app to verify" link (the card profile's
/// `appLaunchURL`, e.g. `examplebank://verify?…`), or has universal links instead; with
/// `--app-launch-url`, that link's scheme is one the app registers.
struct URLSchemeCheck: DoctorCheck {
    func run(_ project: WalletProject, context: CheckContext, into output: inout CheckOutput) {
        guard let app = project.app, let info = app.info else { return }
        let file = project.display(app.infoPlistPath)
        let key = "CFBundleURLTypes"
        var schemes: [String] = []
        var invalidFound = false
        for type in info[key]?.array ?? [] {
            for scheme in type["CFBundleURLSchemes"]?.strings ?? [] {
                if scheme.contains("$(") {
                    output.notes.append("URL scheme \(scheme) is set from a build setting; its value was not checked.")
                    schemes.append(scheme)
                } else if !Self.isValidScheme(scheme) || ["http", "https"].contains(scheme.lowercased()) {
                    invalidFound = true
                    output.add(
                        .urlSchemeInvalid, file: file, key: "\(key).CFBundleURLSchemes",
                        message:
                            "The URL scheme \"\(scheme)\" cannot be used for Wallet's link: \(["http", "https"].contains(scheme.lowercased()) ? "http and https belong to Safari" : "a scheme is a letter followed by letters, digits, \"+\", \"-\" or \".\"").",
                        fix: "Register a scheme of your own, such as examplebank, and use it in the card profile's appLaunchURL.")
                } else {
                    schemes.append(scheme)
                }
            }
        }
        let universalLinks = (app.entitlements?[WalletIdentifiers.associatedDomainsEntitlement]?.strings ?? [])
            .filter { $0.hasPrefix("applinks:") }
        if schemes.isEmpty, !invalidFound {
            if universalLinks.isEmpty {
                output.add(
                    .urlSchemeMissing, file: file, key: key,
                    message:
                        "The app registers no URL scheme and has no universal links: Wallet's \"open the app to verify\" link (appLaunchURL) cannot open it.",
                    fix:
                        "Add CFBundleURLTypes with a CFBundleURLSchemes entry (e.g. examplebank) and give the card profile's appLaunchURL that scheme; handle it in onOpenURL."
                )
            } else {
                output.notes.append(
                    "The app registers no URL scheme; Wallet's appLaunchURL must be a universal link (\(universalLinks.joined(separator: ", ")))."
                )
            }
        }
        guard let launch = context.appLaunchURL else { return }
        guard let scheme = URLComponents(string: launch)?.scheme?.lowercased() else {
            output.add(
                .urlSchemeMismatch, file: file, key: key, message: "The appLaunchURL \"\(launch)\" has no scheme.",
                fix: "Give the card profile an appLaunchURL such as examplebank://verify.")
            return
        }
        if schemes.contains(where: { $0.lowercased() == scheme }) { return }
        if scheme == "https", let host = URLComponents(string: launch)?.host?.lowercased(),
            universalLinks.contains(where: { $0.lowercased().hasSuffix(":" + host) || $0.lowercased().contains(":" + host + "?") }
            )
        {
            return
        }
        output.add(
            .urlSchemeMismatch, file: file, key: key,
            message:
                "The appLaunchURL \(launch) uses the scheme \(scheme), which the app does not register\(schemes.isEmpty ? "" : " (it registers \(schemes.joined(separator: ", ")))").",
            fix:
                "Register \(scheme) in CFBundleURLTypes, or change the card profile's appLaunchURL to a scheme the app registers."
        )
    }

    /// RFC 3986: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    static func isValidScheme(_ scheme: String) -> Bool {
        guard let first = scheme.unicodeScalars.first, first.isASCII, CharacterSet.letters.contains(first) else {
            return false
        }
        return scheme.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }
}
