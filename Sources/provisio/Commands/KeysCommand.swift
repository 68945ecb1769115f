import ArgumentParser
import Foundation
import Logging
import ProvisioCore
import ProvisioCrypto
import ProvisioServer

struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Create and rotate an issuer's key material.",
        subcommands: [Init.self, Rotate.self, Rewrap.self, Retire.self]
    )

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create the vault key-encryption key and the TAV signing key (0600); never overwrites.")

        @Option(name: .long, help: "Directory to create the key files in.")
        var dir: String

        func run() throws {
            try runReportingErrors {
                let keys = try KeyDirectory(path: dir).initialize()
                print(
                    """
                    Created key material in \(dir):
                      \(KeyDirectory.vaultKeysFile)    vault key-encryption key \(keys.keyring.active.id) (0600)
                      \(KeyDirectory.tavSigningKeyFile)  TAV signing key, key id \(TAVSigner(privateKey: keys.tavSigningKey).keyId) (0600)
                      \(KeyDirectory.tavPublicKeyFile)   its public key, for the card network (0644)
                      \(KeyDirectory.panFingerprintKeyFile)  key that fingerprints PANs for the network's requests (0600)
                    """)
            }
        }
    }

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a new active vault key-encryption key; the old one stays for re-wrapping records.")

        @Option(name: .long, help: "The key directory.")
        var dir: String

        func run() throws {
            try runReportingErrors {
                let keyring = try KeyDirectory(path: dir).rotateVaultKey()
                print(
                    """
                    Active key-encryption key: \(keyring.active.id); decrypt-only: \(keyring.decryptOnly.map(\.id).joined(separator: ", "))
                    Running servers seal under it after their next key check (30 s) or at once on SIGHUP; \
                    then run `provisio keys rewrap`.
                    """)
            }
        }
    }

    struct Rewrap: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Re-wrap every stored card, secret, key and idempotent answer under the active vault key (no PAN is decrypted).")

        @Option(name: .long, help: "The key directory.") var dir: String
        @Option(
            name: .long, help: "An SQLite file path or a postgres:// URL (default: PROVISIO_DATABASE_URL or ./provisio.sqlite).")
        var database: String?

        func run() async throws {
            try await runReportingErrorsAsync {
                let keys = try KeyDirectory(path: dir).load()
                try await withDatabase(database) { handle in
                    let report = try await VaultRotation(handle: handle, vault: PANVault(keyring: keys.keyring)).rewrapAll()
                    print(
                        "Re-wrapped \(report.cards) cards, \(report.webhookSecrets) webhook secrets, \(report.networkKeys) network API keys, \(report.mdesIssuerKeys) MDES issuer keys and \(report.idempotentAnswers) stored idempotent answers under \(keys.keyring.active.id)."
                    )
                    // A server still on an older key keeps writing records under it.
                    let behind = try await SQLProvisioStore(handle: handle).liveServers(at: Date())
                        .filter { $0.activeKeyID != keys.keyring.active.id }
                    if !behind.isEmpty {
                        FileHandle.standardError.write(
                            Data(
                                """
                                warning: \(behind.count) running servers still seal under an older key; send them SIGHUP \
                                (or wait 30 s) and run `provisio keys rewrap` again before retiring it.

                                """.utf8))
                    }
                }
            }
        }
    }

    struct Retire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forget a decrypt-only vault key; refused while any stored record or running server still uses it.",
            discussion: """
                Running servers record a heartbeat in the database (the key they seal under, refreshed every 30 s and on \
                SIGHUP, removed when they stop, expired after 90 s); retire refuses a key a live heartbeat names as active.
                """)

        @Option(name: .long, help: "The key directory.") var dir: String
        @Option(name: .customLong("key-id"), help: "The key-encryption key to retire.") var keyID: String
        @Option(
            name: .long, help: "An SQLite file path or a postgres:// URL (default: PROVISIO_DATABASE_URL or ./provisio.sqlite).")
        var database: String?

        func run() async throws {
            try await runReportingErrorsAsync {
                let directory = KeyDirectory(path: dir)
                try await withDatabase(database) { handle in
                    // The key file stays locked from the checks to the write; the checks run only
                    // for a key that is in the file as decrypt-only.
                    try await directory.retireVaultKey(id: keyID) { keyring in
                        let sealing = try await SQLProvisioStore(handle: handle).liveServers(at: Date())
                            .filter { $0.activeKeyID == keyID }
                        guard sealing.isEmpty else {
                            throw ProvisioError(
                                .vaultKeyActiveOnServer,
                                """
                                \(sealing.count) running servers still seal under \(keyID) (\(sealing.map(\.host).joined(separator: "; "))); \
                                send them SIGHUP or wait for their next key check (30 s), run `provisio keys rewrap`, then retry.
                                """)
                        }
                        let remaining = try await VaultRotation(handle: handle, vault: PANVault(keyring: keyring))
                            .recordsUsing(keyID: keyID)
                        guard remaining == 0 else {
                            throw ProvisioError(
                                .vaultKeyInUse,
                                "\(remaining) stored records still use \(keyID); run `provisio keys rewrap` first.")
                        }
                    }
                }
                print("Retired \(keyID); records under it can no longer be decrypted.")
            }
        }
    }
}

/// Opens (and migrates) the database a command names, runs `body`, and closes it.
func withDatabase(_ location: String?, _ body: (any DatabaseHandle) async throws -> Void) async throws {
    var configuration = ServerConfiguration()
    try configuration.apply(environment: ProcessInfo.processInfo.environment)
    if let location { configuration.database = try DatabaseLocation(location) }
    var logger = Logger(label: "provisio")
    logger.logLevel = .warning
    let handle = try await DatabaseConnector.connect(configuration.database, logger: logger)
    do {
        try await Migrator(handle: handle).migrate()
        try await body(handle)
    } catch {
        await handle.shutdown()
        throw error
    }
    await handle.shutdown()
}
