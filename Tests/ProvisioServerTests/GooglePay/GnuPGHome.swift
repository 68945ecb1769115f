import Foundation
import ProvisioProcess
import Testing

/// GnuPG in a throwaway home, for what no code of this repository wrote: opening a Google OPC
/// as Google's side would, and making keys this repository's OpenPGP module will not make
/// (under 2048 bits, sign-only). `.ci/run` installs gnupg; without it the test fails and says so.
struct GnuPGHome {
    let executable: String
    let home: URL

    static func with<T>(_ body: (GnuPGHome) async throws -> T) async throws -> T {
        let executable = try ProgramLookup.require(
            "gpg", orInstall: "Install GnuPG (Debian: apt-get install gnupg); .ci/run does.")
        // Short and under /tmp: gpg-agent's socket path must fit in a sockaddr_un.
        let home = URL(fileURLWithPath: "/tmp").appendingPathComponent("gpay-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let gnupg = GnuPGHome(executable: executable, home: home)
        defer { try? FileManager.default.removeItem(at: home) }
        do {
            let result = try await body(gnupg)
            await gnupg.stopAgent()
            return result
        } catch {
            await gnupg.stopAgent()
            throw error
        }
    }

    private func stopAgent() async {
        let gpgconf = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("gpgconf").path
        _ = try? await ChildProcess.run(gpgconf, arguments: ["--homedir", home.path, "--kill", "all"])
    }

    /// gpg in batch mode with this home; a failure is recorded with gpg's own words.
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

    func path(_ name: String) -> String { home.appendingPathComponent(name).path }

    func importKey(_ armored: String) async throws {
        let file = path("import-\(UUID().uuidString.prefix(8)).asc")
        try Data(armored.utf8).write(to: URL(fileURLWithPath: file))
        try await run(["--import", file])
    }

    /// A new key (`gpg --quick-gen-key`), its fingerprint.
    func generate(_ userID: String, _ algorithm: String, usage: String) async throws -> String {
        try await run(["--quick-gen-key", userID, algorithm, usage, "never"])
        let listing = try await run(["--with-colons", "--list-keys", userID]).standardOutput
        // `fpr:::::::::<fingerprint>:` follows the primary key's `pub` line.
        guard let line = listing.split(separator: "\n").first(where: { $0.hasPrefix("fpr:") }),
            let fingerprint = line.split(separator: ":", omittingEmptySubsequences: false).dropFirst(9).first
        else { throw TestSetupError("gpg made no key for \(userID)") }
        return String(fingerprint)
    }

    func addSubkey(to fingerprint: String, _ algorithm: String, usage: String) async throws {
        try await run(["--quick-add-key", fingerprint, algorithm, usage, "never"])
    }

    func exportPublic(_ fingerprint: String) async throws -> String {
        try await run(["--armor", "--export", fingerprint]).standardOutput
    }
}
