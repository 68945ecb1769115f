import ArgumentParser
import Foundation
import ProvisioCore
import ProvisioCrypto

struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Create and rotate an issuer's key material.",
        subcommands: [Init.self, Rotate.self]
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
                    "Active key-encryption key: \(keyring.active.id); decrypt-only: \(keyring.decryptOnly.map(\.id).joined(separator: ", "))"
                )
            }
        }
    }
}
