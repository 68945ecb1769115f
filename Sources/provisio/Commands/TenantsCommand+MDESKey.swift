import ArgumentParser
import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioServer

extension TenantsCommand {
    /// `provisio tenants mdes-key`: the tenant's RSA key for MDES's encrypted payloads.
    struct MDESKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mdes-key",
            abstract:
                "Create the tenant's RSA key for MDES's encrypted payloads; prints {\"public_key_pem\", \"public_key_fingerprint\"}.",
            discussion: """
                The issuer registers the printed public key and fingerprint with Mastercard. The private half is sealed \
                by the vault (the key directory's vault key) in the database, and never printed.

                Without --rotate the command is idempotent: when the tenant has a live key, it prints that key (the \
                newest) and makes none. --rotate adds a new key beside the live ones; every live key decrypts, MDES \
                naming its key by fingerprint, until the old one is retired with --retire FINGERPRINT once Mastercard \
                wraps for the new one. A retired key's private half is deleted; the tenant's last live key cannot be \
                retired.

                --bits defaults to 2048: Mastercard's Issuer Outbound document (2.0.33) allows an encryptedKey of at \
                most 512 hex characters, the size of a 2048-bit RSA block, so a 3072-bit key's (768) is beyond what \
                Mastercard publishes. Use 3072 only if Mastercard confirms it for you (docs/mdes.md).
                """)

        @Option(name: .customLong("tenant-id"), help: "The tenant.") var tenantID: String
        @Option(
            name: .long, help: "An SQLite file path or a postgres:// URL (default: PROVISIO_DATABASE_URL or ./provisio.sqlite).")
        var database: String?
        @Option(
            name: .long,
            help: ArgumentHelp(
                "The key directory whose vault key seals the private key (default: PROVISIO_KEYS_DIR or ./provisio-keys).",
                valueName: "dir"))
        var keys: String?
        @Flag(name: .long, help: "Make a new key beside the tenant's live ones, even if it has one.") var rotate = false
        @Option(
            name: .long,
            help: ArgumentHelp(
                "Retire the tenant's live key with this fingerprint (and delete its private half).", valueName: "fingerprint"))
        var retire: String?
        // Read as text, so that a bad value gets the stable code like every other refusal.
        @Option(
            name: .long,
            help: ArgumentHelp("RSA key size: 2048 (default; Mastercard's published limit) or 3072.", valueName: "bits"))
        var bits: String?

        func run() async throws {
            try await runReportingErrorsAsync {
                guard !(rotate && retire != nil), !(bits != nil && retire != nil) else {
                    throw ProvisioError(.invalidArgument, "--retire goes alone: not with --rotate or --bits.")
                }
                let keySize = try bits.map { text in
                    guard let value = Int(text) else {
                        throw ProvisioError(.mdesKeySizeUnsupported, "--bits is 2048 or 3072.")
                    }
                    try MDESIssuerKey.checkGeneratedKeySize(value)
                    return value
                }
                var configuration = ServerConfiguration()
                try configuration.apply(environment: ProcessInfo.processInfo.environment)
                let keyring = try KeyDirectory(path: keys ?? configuration.keysDirectory).loadKeyring()
                try await withDatabase(database) { handle in
                    let store = SQLProvisioStore(handle: handle)
                    guard try await store.tenantExists(id: tenantID) else {
                        throw ProvisioError(.tenantNotFound, "No tenant with the id \(tenantID).")
                    }
                    let service = MDESKeyService(store: store, vault: PANVault(keyring: keyring), clock: SystemTimeSource())
                    try await AuditContext.$current.withValue(AuditContext(actor: .commandLine)) {
                        if let retire {
                            let retired = try await service.retire(tenantID: tenantID, fingerprint: retire)
                            try Self.print(["retired_fingerprint": retired.fingerprint])
                            return
                        }
                        let key = try await service.key(tenantID: tenantID, keySize: keySize, rotate: rotate)
                        if !key.created {
                            FileHandle.standardError.write(
                                Data("note: the tenant already has this MDES key; add --rotate to make another.\n".utf8))
                        }
                        try Self.print(["public_key_pem": key.pem, "public_key_fingerprint": key.fingerprint])
                    }
                }
            }
        }

        private static func print(_ object: [String: String]) throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Swift.print(String(decoding: try encoder.encode(object), as: UTF8.self))
        }
    }
}
