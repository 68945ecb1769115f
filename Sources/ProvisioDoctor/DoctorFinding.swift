/// One misconfiguration: a stable code, where it is (file and key) and how to fix it.
public struct DoctorFinding: Sendable, Hashable, Codable {
    /// How bad it is. Both count as findings (exit status 1); a warning is a setup that works
    /// only in some cases (for example, card art whose corners could not be inspected).
    public enum Severity: String, Sendable, Hashable, Codable {
        case error
        case warning
    }

    public var code: DoctorCode
    public var severity: Severity
    /// The file the finding is about, relative to the examined path when it is inside it.
    public var file: String?
    /// The key inside that file (`NSExtension.NSExtensionPointIdentifier`, …), when there is one.
    public var key: String?
    public var message: String
    public var fix: String

    public init(
        _ code: DoctorCode, severity: Severity = .error, file: String?, key: String?, message: String, fix: String
    ) {
        self.code = code
        self.severity = severity
        self.file = file
        self.key = key
        self.message = message
        self.fix = fix
    }
}
