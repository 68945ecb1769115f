import Foundation

/// Finds the programs Provisio's tools and tests run but do not ship (python3, clang, gpg), the
/// way a shell finds them, and says what to install when one is missing.
public enum ProgramLookup {
    /// Where to look when the environment has no `PATH`.
    public static let defaultSearchPath = "/usr/local/bin:/usr/bin:/bin"

    /// The first executable file named `name` in the directories of `PATH`.
    public static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String?
    {
        let path = environment["PATH"] ?? defaultSearchPath
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The path of `name`, or an error that says it is missing and how to install it.
    public static func require(_ name: String, orInstall install: String) throws -> String {
        guard let found = find(name) else { throw MissingProgram(reason: "\(name) is not on the PATH.", install: install) }
        return found
    }

    /// `python3` able to import every one of `modules`, or an error that says what is missing
    /// and how to install it.
    public static func requirePython3(importing modules: [String], orInstall install: String) async throws -> String {
        let python = try require("python3", orInstall: install)
        guard !modules.isEmpty else { return python }
        let probe = try await ChildProcess.run(python, arguments: ["-c", "import " + modules.joined(separator: ", ")])
        guard probe.status == 0 else {
            throw MissingProgram(
                reason: "\(python) cannot import \(modules.joined(separator: ", ")).", install: install)
        }
        return python
    }
}
