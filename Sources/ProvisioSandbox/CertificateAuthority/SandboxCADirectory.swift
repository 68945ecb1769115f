import Foundation
import ProvisioCore

/// Writes a sandbox CA to disk (`provisio sandbox ca --out DIR`):
/// `root.pem`, `chain.json` (`{"certificates": [base64 DER, leaf first]}`) and `leaf-key.pem`
/// for ECC_V2, and `rsa-chain.json` and `rsa-leaf-key.pem` for RSA_V2.
public enum SandboxCADirectory {
    public static let files = ["root.pem", "chain.json", "leaf-key.pem", "rsa-chain.json", "rsa-leaf-key.pem"]

    public static func write(_ ca: SandboxCertificateAuthority, to directory: String) throws {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ProvisioError(.sandboxIOFailed, "Cannot create the directory \(directory).")
        }
        for name in files where manager.fileExists(atPath: path(directory, name)) {
            throw ProvisioError(.sandboxIOFailed, "\(path(directory, name)) already exists; refusing to overwrite.")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var outputs: [(String, String, Int)] = [
            ("root.pem", try SandboxCertificateAuthority.pem(ca.root), 0o644),
            (
                "chain.json",
                String(decoding: try encoder.encode(Chain(certificates: try ca.chainBase64(for: .eccV2))), as: UTF8.self), 0o644
            ),
            ("leaf-key.pem", ca.eccLeafKeyPEM, 0o600),
        ]
        if let rsaKey = ca.rsaLeafKeyPEM {
            outputs.append(
                (
                    "rsa-chain.json",
                    String(decoding: try encoder.encode(Chain(certificates: try ca.chainBase64(for: .rsaV2))), as: UTF8.self),
                    0o644
                ))
            outputs.append(("rsa-leaf-key.pem", rsaKey, 0o600))
        }
        for (name, contents, mode) in outputs {
            guard
                manager.createFile(
                    atPath: path(directory, name), contents: Data((contents + (contents.hasSuffix("\n") ? "" : "\n")).utf8),
                    attributes: [.posixPermissions: mode])
            else {
                throw ProvisioError(.sandboxIOFailed, "Cannot write \(path(directory, name)).")
            }
        }
    }

    struct Chain: Codable {
        var certificates: [String]
    }

    private static func path(_ directory: String, _ name: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }
}
