import Foundation

/// What `provisio doctor` found: the targets it read, every finding, and what it could not
/// verify. Encodes to the `--json` document (snake_case keys, sorted, stable).
public struct DoctorReport: Sendable, Codable, Hashable {
    public struct Target: Sendable, Codable, Hashable {
        public var name: String
        public var role: ProjectTarget.Role
        public var infoPlist: String?
        public var entitlements: String?
    }

    public var path: String
    public var kind: WalletProject.Kind
    public var targets: [Target]
    public var findings: [DoctorFinding]
    public var notes: [String]

    /// 0 when there is nothing to fix, 1 otherwise (2, unusable input, is a `DoctorError`).
    public var exitStatus: Int32 { findings.isEmpty ? 0 : 1 }

    public init(project: WalletProject, findings: [DoctorFinding], notes: [String]) {
        path = project.root
        kind = project.kind
        targets = project.targets.map {
            Target(
                name: $0.name, role: $0.role, infoPlist: project.display($0.infoPlistPath),
                entitlements: project.display($0.entitlementsPath))
        }
        self.findings = findings
        self.notes = notes
    }

    public func json() -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Every member is a string, an array or a nested Codable of those: encoding cannot fail.
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }
}
