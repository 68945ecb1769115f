import Foundation

/// Every Wallet target's Info.plist has the `ProvisioExtension` dictionary ProvisioKit reads
/// (`ProvisioWalletExtensionHandler.infoDictionaryKey`) with `AppGroup`, `KeychainAccessGroup` and
/// `ServerURL` as non-empty strings, and all three name the same server.
struct ProvisioConfigurationCheck: DoctorCheck {
    func run(_ project: WalletProject, context: CheckContext, into output: inout CheckOutput) {
        let dictionary = WalletIdentifiers.provisioDictionary
        var servers: [(ProjectTarget, String)] = []
        for target in project.walletTargets {
            guard let info = target.info else { continue }
            let file = project.display(target.infoPlistPath)
            guard let settings = info[dictionary]?.dictionary else {
                output.add(
                    .provisioConfigMissing, file: file, key: dictionary,
                    message:
                        "\(target.label)'s Info.plist has no \(dictionary) dictionary; ProvisioKit reports extension_not_configured.",
                    fix:
                        "Add <key>\(dictionary)</key> with AppGroup, KeychainAccessGroup and ServerURL, the same in the app and both extensions."
                )
                continue
            }
            for key in [
                WalletIdentifiers.provisioAppGroupKey, WalletIdentifiers.provisioKeychainGroupKey,
                WalletIdentifiers.provisioServerURLKey,
            ] {
                guard let value = settings[key]?.string, !value.trimmingCharacters(in: .whitespaces).isEmpty else {
                    output.add(
                        .provisioConfigKeyMissing, file: file, key: "\(dictionary).\(key)",
                        message: "\(target.label)'s \(dictionary) has no \(key) string.",
                        fix: "Set \(dictionary).\(key) (a string), as in the other targets.")
                    continue
                }
                if key == WalletIdentifiers.provisioServerURLKey { servers.append((target, value)) }
            }
        }
        let counts = servers.reduce(into: [String: Int]()) { $0[$1.1, default: 0] += 1 }
        let appValue = servers.first { $0.0.role == .app }?.1
        guard
            let common = counts.max(by: { ($0.value, $0.key == appValue ? 1 : 0) < ($1.value, $1.key == appValue ? 1 : 0) })?.key
        else { return }
        for (target, value) in servers where value != common {
            output.add(
                .provisioConfigMismatch, file: project.display(target.infoPlistPath),
                key: "\(dictionary).\(WalletIdentifiers.provisioServerURLKey)",
                message: "\(target.label) names the server \(value); the other targets name \(common).",
                fix: "Use the same ServerURL in the app and both extensions.")
        }
    }
}
