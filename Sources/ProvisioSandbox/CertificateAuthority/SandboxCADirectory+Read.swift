import Crypto
import Foundation
import ProvisioCore
import X509
import _CryptoExtras

extension SandboxCADirectory {
    /// Whether `directory` holds the ECC_V2 files `read(from:)` needs (`root.pem`, `chain.json`,
    /// `leaf-key.pem`).
    public static func containsCA(at directory: String) -> Bool {
        requiredFiles.allSatisfy { FileManager.default.fileExists(atPath: path(in: directory, $0)) }
    }

    /// Loads a CA that `write(_:to:)` wrote (`provisio sandbox ca --out DIR`), so a long-running
    /// sandbox keeps the root Provisio was told to trust. Checks what a mix-up would break: the
    /// chain is leaf then intermediate, the root signed the intermediate and the intermediate the
    /// leaves, and each leaf key is the private half of its certificate.
    public static func read(from directory: String) throws -> SandboxCertificateAuthority {
        let root = try certificate(pem: try text(directory, "root.pem"), file: "root.pem")
        let (eccLeaf, intermediate) = try chain(directory, "chain.json")
        let eccLeafKeyPEM = try text(directory, "leaf-key.pem")
        guard let eccKey = try? P256.KeyAgreement.PrivateKey(pemRepresentation: eccLeafKeyPEM),
            let eccPublic = try? P256.Signing.PublicKey(rawRepresentation: eccKey.publicKey.rawRepresentation),
            Certificate.PublicKey(eccPublic) == eccLeaf.publicKey
        else {
            throw invalid(directory, "leaf-key.pem is not the P-256 private key of the leaf in chain.json.")
        }
        guard root.publicKey.isValidSignature(intermediate.signature, for: intermediate) else {
            throw invalid(directory, "The intermediate in chain.json was not issued by root.pem.")
        }
        guard intermediate.publicKey.isValidSignature(eccLeaf.signature, for: eccLeaf) else {
            throw invalid(directory, "The leaf in chain.json was not issued by its intermediate.")
        }

        var rsaLeaf: Certificate?
        var rsaLeafKeyPEM: String?
        let rsaFiles = ["rsa-chain.json", "rsa-leaf-key.pem"]
        let rsaPresent = rsaFiles.filter { FileManager.default.fileExists(atPath: path(in: directory, $0)) }
        if rsaPresent.count == 1 {
            throw invalid(directory, "\(rsaPresent[0]) is there without \(rsaFiles.first { $0 != rsaPresent[0] } ?? "its pair").")
        }
        if rsaPresent.count == 2 {
            let (leaf, rsaIntermediate) = try chain(directory, "rsa-chain.json")
            guard rsaIntermediate == intermediate else {
                throw invalid(directory, "rsa-chain.json and chain.json do not share their intermediate.")
            }
            guard intermediate.publicKey.isValidSignature(leaf.signature, for: leaf) else {
                throw invalid(directory, "The leaf in rsa-chain.json was not issued by its intermediate.")
            }
            let pem = try text(directory, "rsa-leaf-key.pem")
            guard let key = try? _RSA.Encryption.PrivateKey(pemRepresentation: pem),
                let signingPublic = try? _RSA.Signing.PublicKey(derRepresentation: key.publicKey.derRepresentation),
                Certificate.PublicKey(signingPublic) == leaf.publicKey
            else {
                throw invalid(directory, "rsa-leaf-key.pem is not the RSA private key of the leaf in rsa-chain.json.")
            }
            (rsaLeaf, rsaLeafKeyPEM) = (leaf, pem)
        }
        return SandboxCertificateAuthority(
            root: root, intermediate: intermediate, eccLeaf: eccLeaf, eccLeafKeyPEM: eccLeafKeyPEM, rsaLeaf: rsaLeaf,
            rsaLeafKeyPEM: rsaLeafKeyPEM)
    }

    private static let requiredFiles = ["root.pem", "chain.json", "leaf-key.pem"]

    private static func path(in directory: String, _ name: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }

    private static func text(_ directory: String, _ name: String) throws -> String {
        let file = path(in: directory, name)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ProvisioError(.sandboxIOFailed, "Cannot read \(file).")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A chain file: `{"certificates": [leaf, intermediate]}`, base64 DER.
    private static func chain(_ directory: String, _ name: String) throws -> (leaf: Certificate, intermediate: Certificate) {
        guard let chain = try? JSONDecoder().decode(Chain.self, from: Data(try text(directory, name).utf8)),
            chain.certificates.count == 2
        else {
            throw invalid(directory, "\(name) must be {\"certificates\": [leaf, intermediate]} in base64 DER.")
        }
        let certificates = try chain.certificates.map { base64 -> Certificate in
            guard let der = Data(base64Encoded: base64), let certificate = try? Certificate(derEncoded: Array(der)) else {
                throw invalid(directory, "\(name) holds a certificate that is not base64 DER.")
            }
            return certificate
        }
        return (certificates[0], certificates[1])
    }

    private static func certificate(pem: String, file: String) throws -> Certificate {
        guard let certificate = try? Certificate(pemEncoded: pem) else {
            throw ProvisioError(.sandboxCAInvalid, "\(file) is not a PEM certificate.")
        }
        return certificate
    }

    private static func invalid(_ directory: String, _ message: String) -> ProvisioError {
        ProvisioError(.sandboxCAInvalid, "The sandbox CA in \(directory) is not usable: \(message)")
    }
}
