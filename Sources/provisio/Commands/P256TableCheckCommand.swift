import ArgumentParser
import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto

/// `provisio p256-table-check` (hidden): builds a `P256KeyAgreementTable` for a random key and
/// compares its multiplications with swift-crypto's ECDH, printing JSON that names the variant
/// BoringSSL ran. BoringSSL reads `OPENSSL_ia32cap` once per process, so the tests run this in a
/// child process with ADX, BMI2 and AVX2 masked off to exercise the `_nohw` functions.
struct P256TableCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "p256-table-check",
        abstract: "Check the P-256 multiplication table against swift-crypto's ECDH (for tests).",
        shouldDisplay: false
    )

    struct Report: Encodable {
        var available: Bool
        /// "adx" or "nohw"; nil where tables are unavailable.
        var arithmetic: String?
        /// "avx2" or "nohw"; nil where tables are unavailable.
        var select: String?
        /// False where tables are unavailable, or the table failed its self-check.
        var tableBuilt: Bool
        var multiplications: Int
        var mismatches: Int
    }

    /// Scalars the random ones rarely reach: the smallest, the top bit alone, n − 1.
    static let edgeScalars: [String] = [
        "0000000000000000000000000000000000000000000000000000000000000001",
        "8000000000000000000000000000000000000000000000000000000000000000",
        "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550",
    ]

    @Option(name: .long, help: "Random multiplications to compare (1-100000), besides a few fixed ones.")
    var multiplications: Int = 200

    func run() throws {
        try runReportingErrors {
            guard (1...100_000).contains(multiplications) else {
                throw ProvisioError(.invalidParameter, "--multiplications must be between 1 and 100000.")
            }
            let report = try Self.check(randomMultiplications: multiplications)
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
            if report.mismatches > 0 || (report.available && !report.tableBuilt) { throw ExitCode(1) }
        }
    }

    static func check(randomMultiplications: Int) throws -> Report {
        let variant = P256KeyAgreementTable.variant
        var report = Report(
            available: P256KeyAgreementTable.isAvailable,
            arithmetic: variant.map { $0.usesADX ? "adx" : "nohw" },
            select: variant.map { $0.usesAVX2 ? "avx2" : "nohw" },
            tableBuilt: false, multiplications: 0, mismatches: 0)
        let recipient = P256.KeyAgreement.PrivateKey().publicKey
        guard let table = P256KeyAgreementTable(recipient: recipient) else { return report }
        report.tableBuilt = true
        var keys = try edgeScalars.map { try P256.KeyAgreement.PrivateKey(rawRepresentation: BinaryText.decodeHex($0)!) }
        keys += (0..<randomMultiplications).map { _ in P256.KeyAgreement.PrivateKey() }
        for key in keys {
            let expected = try key.sharedSecretFromKeyAgreement(with: recipient).withUnsafeBytes { Array($0) }
            let actual = table.withSharedSecret(ephemeralKey: key) { Array($0) }
            report.multiplications += 1
            if actual != expected { report.mismatches += 1 }
        }
        return report
    }
}
