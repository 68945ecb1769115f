/// Reads the Info.plists and entitlements of a project, turning each failure into a finding
/// (`doctor.plist_unreadable`, `doctor.file_too_large`) instead of stopping: one bad file should
/// not hide what is wrong in the others.
struct PlistLoader {
    let limits: DoctorLimits
    let root: String
    var findings: [DoctorFinding] = []

    init(limits: DoctorLimits, root: String) {
        self.limits = limits
        self.root = root
    }

    mutating func load(_ path: String) -> PlistValue? {
        let reader = PropertyListReader(maximumBytes: limits.maximumPlistBytes)
        do {
            let (value, _) = try reader.read(path)
            guard value.dictionary != nil else {
                findings.append(
                    DoctorFinding(
                        .plistUnreadable, file: display(path), key: nil,
                        message: "The file is a property list, but not a dictionary.",
                        fix: "An Info.plist or entitlements file holds one <dict> at its top level."))
                return nil
            }
            return value
        } catch {
            switch error {
            case .tooLarge(let count, let limit):
                findings.append(
                    DoctorFinding(
                        .fileTooLarge, file: display(path), key: nil,
                        message: "The file is \(count) bytes; the doctor reads property lists up to \(limit) bytes.",
                        fix: "Check that this is the right file: an Info.plist or entitlements file is a few kilobytes."))
            case .unreadable(let reason):
                findings.append(
                    DoctorFinding(
                        .plistUnreadable, file: display(path), key: nil, message: "The file cannot be read: \(reason).",
                        fix:
                            "Repair it (Xcode opens it as a property list when it is valid; `plutil -lint` says where it is not)."
                    ))
            }
            return nil
        }
    }

    func display(_ path: String) -> String {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
