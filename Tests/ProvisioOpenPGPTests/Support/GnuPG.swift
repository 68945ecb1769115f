import Foundation
import ProvisioProcess
import Testing

/// GnuPG in a throwaway home directory: a client of OpenPGP that no one here wrote. `.ci/run`
/// installs it (Debian's gnupg); without it these tests fail, and say how to install it.
struct GnuPG {
    static let install =
        "The OpenPGP interoperability tests need it. Install GnuPG (Debian: apt-get install gnupg); .ci/run does."

    let executable: String
    let home: URL

    /// Runs `body` with a fresh GnuPG home (mode 0700), then stops its agent and removes it.
    /// Without gpg on the PATH it throws `MissingProgram`, which fails the test and says why.
    static func withHome<T>(_ body: (GnuPG) async throws -> T) async throws -> T {
        let executable = try ProgramLookup.require("gpg", orInstall: install)
        // Short and under /tmp: gpg-agent's socket path must fit in a sockaddr_un.
        let home = URL(fileURLWithPath: "/tmp").appendingPathComponent("pgp-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let gnupg = GnuPG(executable: executable, home: home)
        do {
            let result = try await body(gnupg)
            await gnupg.tearDown()
            return result
        } catch {
            await gnupg.tearDown()
            throw error
        }
    }

    private func tearDown() async {
        let gpgconf = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("gpgconf").path
        _ = try? await ChildProcess.run(gpgconf, arguments: ["--homedir", home.path, "--kill", "all"])
        // The agent may still be writing as it exits: a removal that raced it is tried again.
        for _ in 0..<10 {
            try? FileManager.default.removeItem(at: home)
            guard FileManager.default.fileExists(atPath: home.path) else { return }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Runs gpg in batch mode with this home; fails the test with gpg's own words if it fails.
    @discardableResult
    func run(_ arguments: [String], input: Data = Data()) async throws -> ChildProcess.Completed {
        let common = [
            "--homedir", home.path, "--batch", "--no-tty", "--yes", "--trust-model", "always", "--pinentry-mode", "loopback",
            "--passphrase", "",
        ]
        let completed = try await ChildProcess.run(executable, arguments: common + arguments, input: input)
        if completed.status != 0 {
            Issue.record("gpg \(arguments.joined(separator: " ")) exited \(completed.status): \(completed.standardError)")
        }
        return completed
    }

    func file(_ name: String) -> URL { home.appendingPathComponent(name) }

    func write(_ data: Data, to name: String) throws -> String {
        let url = file(name)
        try data.write(to: url)
        return url.path
    }

    func importKey(_ armored: String) async throws {
        try await run(["--import", try write(Data(armored.utf8), to: "import-\(UUID().uuidString).asc")])
    }
}
