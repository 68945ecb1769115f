/// The app and both extensions carry `com.apple.developer.payment-pass-provisioning`. PassKit
/// looks the extensions up with `ENTITLEMENT:com.apple.developer.payment-pass-provisioning`
/// as a match attribute, so the extensions need it as much as the app does.
struct PaymentPassEntitlementCheck: DoctorCheck {
    func run(_ project: WalletProject, context: CheckContext, into output: inout CheckOutput) {
        let key = WalletIdentifiers.paymentPassEntitlement
        if project.walletTargets.contains(where: { $0.entitlements?[key]?.bool == true }) {
            output.notes.append(
                "Whether Apple granted \(key) (it must be in the provisioning profiles of the app and both extensions) is not in the files read."
            )
        }
        for target in project.walletTargets {
            guard let entitlements = target.entitlements else {
                // A file that exists but could not be read was reported when it was read.
                if target.entitlementsPath == nil {
                    output.add(
                        .entitlementsMissing, file: project.display(target.infoPlistPath), key: nil,
                        message: project.kind == .appBundle
                            ? "\(target.label) carries no entitlements: it is not signed (or signed without any)."
                            : "\(target.label) has no .entitlements file the doctor could find.",
                        fix: project.kind == .xcodeproj
                            ? "Set CODE_SIGN_ENTITLEMENTS for the target to its .entitlements file."
                            : "Give the target an .entitlements file (beside its Info.plist) with \(key), the App Group and the keychain group."
                    )
                }
                continue
            }
            if entitlements[key]?.bool != true {
                output.add(
                    .paymentPassEntitlementMissing, file: project.display(target.entitlementsPath), key: key,
                    message:
                        "\(target.label) does not have \(key) set to true; without it PassKit refuses the add request and Wallet does not load the extensions.",
                    fix:
                        "Add <key>\(key)</key><true/> to the entitlements; Apple grants it to issuers (apple-pay-inquiries@apple.com) and adds it to the provisioning profiles of the app and both extensions."
                )
            }
        }
    }
}
