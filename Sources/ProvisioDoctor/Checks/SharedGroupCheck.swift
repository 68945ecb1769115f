/// The app and both extensions share one group — the App Group (where the app leaves the
/// configuration and card art for the non-UI extension) or the keychain access group (where the
/// UI extension leaves the session for it) — and the `ProvisioExtension` key naming it agrees
/// with the entitlements in every target. One finding per target at most: the first thing wrong.
struct SharedGroupCheck: DoctorCheck {
    var entitlementKey: String
    var provisioKey: String
    var what: String
    var missing: DoctorCode
    var mismatch: DoctorCode
    /// A prefix every identifier must have (`group.` for App Groups on iOS), when there is one.
    var requiredPrefix: String?
    var invalid: DoctorCode?

    static let appGroup = SharedGroupCheck(
        entitlementKey: WalletIdentifiers.appGroupsEntitlement, provisioKey: WalletIdentifiers.provisioAppGroupKey,
        what: "App Group", missing: .appGroupMissing, mismatch: .appGroupMismatch, requiredPrefix: "group.",
        invalid: .appGroupInvalid)

    static let keychainGroup = SharedGroupCheck(
        entitlementKey: WalletIdentifiers.keychainGroupsEntitlement,
        provisioKey: WalletIdentifiers.provisioKeychainGroupKey, what: "keychain access group",
        missing: .keychainGroupMissing, mismatch: .keychainGroupMismatch)

    func run(_ project: WalletProject, context: CheckContext, into output: inout CheckOutput) {
        let targets = project.walletTargets
        var groups: [String: [String]] = [:]
        var reported: Set<String> = []
        for target in targets {
            guard let entitlements = target.entitlements else { continue }
            let file = project.display(target.entitlementsPath)
            let list = entitlements[entitlementKey]?.strings ?? []
            guard !list.isEmpty else {
                output.add(
                    missing, file: file, key: entitlementKey,
                    message: "\(target.label) lists no \(what) (\(entitlementKey)).",
                    fix: "Add the \(what) the app and both extensions share to \(entitlementKey) (Signing & Capabilities).")
                reported.insert(target.name)
                continue
            }
            groups[target.name] = list
            if let requiredPrefix, let invalid,
                let wrong = list.first(where: { !$0.hasPrefix(requiredPrefix) && !$0.contains("$(") })
            {
                output.add(
                    invalid, file: file, key: entitlementKey,
                    message: "\(target.label) lists the \(what) \"\(wrong)\", which does not start with \"\(requiredPrefix)\".",
                    fix: "On iOS an \(what) identifier is \(requiredPrefix)<name>, registered in your developer account.")
                reported.insert(target.name)
            }
        }
        // The group most targets list (the app's when tied) is the one they should share.
        let counts = groups.values.reduce(into: [String: Int]()) { counts, list in
            for group in Set(list) { counts[group, default: 0] += 1 }
        }
        let appGroups = project.app.flatMap { groups[$0.name] } ?? []
        let shared = counts.max {
            ($0.value, appGroups.contains($0.key) ? 1 : 0, $1.key) < ($1.value, appGroups.contains($1.key) ? 1 : 0, $0.key)
        }?.key
        if let shared {
            for target in targets where groups[target.name] != nil && !reported.contains(target.name) {
                guard !groups[target.name]!.contains(shared) else { continue }
                output.add(
                    mismatch, file: project.display(target.entitlementsPath), key: entitlementKey,
                    message:
                        "\(target.label) lists \(groups[target.name]!.joined(separator: ", ")), not the \(what) \(shared) the other targets share.",
                    fix: "Use the same \(what) (\(shared)) in the app and both extensions.")
                reported.insert(target.name)
            }
        }
        // ProvisioExtension names the group the code uses: it must be one the target has, and
        // the same in every target.
        let configured = targets.compactMap { target -> (ProjectTarget, String)? in
            guard let value = target.info?[path: "\(WalletIdentifiers.provisioDictionary).\(provisioKey)"]?.string,
                !value.isEmpty
            else { return nil }
            return (target, value)
        }
        let key = "\(WalletIdentifiers.provisioDictionary).\(provisioKey)"
        for (target, value) in configured where !reported.contains(target.name) {
            guard let list = groups[target.name], !list.contains(value) else { continue }
            output.add(
                mismatch, file: project.display(target.infoPlistPath), key: key,
                message:
                    "\(target.label) names the \(what) \(value) in \(key), but its entitlements list \(list.joined(separator: ", ")).",
                fix: "Make \(key) one of the target's \(entitlementKey), the one all three targets share.")
            reported.insert(target.name)
        }
        let values = configured.reduce(into: [String: Int]()) { $0[$1.1, default: 0] += 1 }
        let appValue = configured.first { $0.0.role == .app }?.1
        if let common = values.max(by: { ($0.value, $0.key == appValue ? 1 : 0) < ($1.value, $1.key == appValue ? 1 : 0) })?.key {
            for (target, value) in configured where value != common && !reported.contains(target.name) {
                output.add(
                    mismatch, file: project.display(target.infoPlistPath), key: key,
                    message: "\(target.label) names the \(what) \(value); the other targets name \(common).",
                    fix: "Use the same \(key) in the app and both extensions.")
                reported.insert(target.name)
            }
        }
    }
}
