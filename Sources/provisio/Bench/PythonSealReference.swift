import Foundation
import ProvisioProcess

/// The same ECC_V2 work as `ECCV2Sealer.seal` — a fresh P-256 key, ECDH with the recipient,
/// the ECC_V2 SHA-256 KDF, AES-256-GCM over a payload of the same length — done by Python's
/// `cryptography` package (OpenSSL underneath): what an issuer gets from a few lines of Python,
/// the bar DESIGN.md sets the seal against. It runs in its own `python3` process on one core;
/// the interpreter's start-up and the import are outside its timing.
struct PythonSealReference {
    struct Round {
        var seals: Int
        var seconds: Double
    }

    /// Why the reference did not run, in words for the report.
    struct Unavailable: Error {
        var reason: String
    }

    static let script = """
        import sys, time, os
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        import cryptography
        from cryptography.hazmat.backends.openssl import backend
        if sys.argv[1] == "version":
            print("cryptography", cryptography.__version__, "on", backend.openssl_version_text())
            sys.exit(0)
        seconds, length = float(sys.argv[1]), int(sys.argv[2])
        plaintext = os.urandom(length)
        curve = ec.SECP256R1()
        recipient = ec.generate_private_key(curve).public_key()
        info = b"\\x0did-aes256-GCMApple"
        nonce = bytes(12)
        def seal():
            ephemeral = ec.generate_private_key(curve)
            point = ephemeral.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
            z = ephemeral.exchange(ec.ECDH(), recipient)
            digest = hashes.Hash(hashes.SHA256())
            for part in (b"\\x00\\x00\\x00\\x01", z, info, point):
                digest.update(part)
            return AESGCM(digest.finalize()).encrypt(nonce, plaintext, None)
        for _ in range(200):
            seal()
        count, start = 0, time.perf_counter()
        while True:
            for _ in range(50):
                seal()
            count += 50
            now = time.perf_counter()
            if now - start >= seconds:
                break
        print(count, now - start)
        """

    let python: String

    /// Finds `python3` on `PATH` with `cryptography` importable, or says why not.
    static func locate() async -> Result<(PythonSealReference, version: String), Unavailable> {
        guard let python = ProgramLookup.find("python3") else {
            return .failure(Unavailable(reason: "python3 is not on PATH"))
        }
        let reference = PythonSealReference(python: python)
        guard let version = try? await reference.output(["version"]), version.hasPrefix("cryptography") else {
            return .failure(
                Unavailable(reason: "\(python) cannot import the cryptography package (pip install cryptography)"))
        }
        return .success((reference, version.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    func round(seconds: Double, plaintextLength: Int) async throws -> Round {
        let words = try await output([String(seconds), String(plaintextLength)]).split(separator: " ")
        guard words.count == 2, let seals = Int(words[0]),
            let elapsed = Double(words[1].trimmingCharacters(in: .whitespacesAndNewlines)), elapsed > 0
        else {
            throw Unavailable(reason: "the Python reference printed something unexpected")
        }
        return Round(seals: seals, seconds: elapsed)
    }

    private func output(_ arguments: [String]) async throws -> String {
        let completed = try await ChildProcess.run(python, arguments: ["-c", Self.script] + arguments)
        guard completed.status == 0 else {
            throw Unavailable(reason: "python3 \(completed.termination): \(completed.standardError.suffix(500))")
        }
        return completed.standardOutput
    }
}
