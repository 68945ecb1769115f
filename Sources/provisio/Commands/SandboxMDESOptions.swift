import ArgumentParser
import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox

/// `provisio sandbox serve --network mdes`: what the sandbox's MDES needs to call the issuer's
/// MDES listener (its URL, the client certificate, the CA of the listener's certificate, the
/// issuer's payload key) and to check the issuer's Customer Service calls (its OAuth key).
struct SandboxMDESOptions: ParsableArguments {
    @Option(
        name: .customLong("mdes-issuer-url"),
        help: "The issuer's MDES base URL, https://host:port/mdes/{tenant_id}/issuerServices/1/0 (mdes).")
    var issuerURL: String?
    @Option(name: .customLong("mdes-client-cert"), help: "PEM certificate (chain) the sandbox's MDES presents (mdes).")
    var clientCertificate: String?
    @Option(name: .customLong("mdes-client-key"), help: "PEM private key of --mdes-client-cert (mdes).")
    var clientKey: String?
    @Option(name: .customLong("mdes-server-ca"), help: "PEM of the CA that issued the issuer's MDES listener certificate (mdes).")
    var serverCA: String?
    @Option(
        name: .customLong("mdes-issuer-public-key"),
        help: "The issuer's payload key: public_key_pem of `provisio tenants mdes-key`, as PEM or that command's JSON (mdes).")
    var issuerPublicKey: String?
    @Option(
        name: .customLong("mdes-oauth-public-key"),
        help:
            "PEM public half of the issuer's OAuth signing key (oauth_signing_key_pem's), to verify its Customer Service calls (mdes)."
    )
    var oauthPublicKey: String?
    @Option(name: .customLong("mdes-oauth-consumer-key"), help: "Accept only this oauth_consumer_key (default: any).")
    var oauthConsumerKey: String?
    @Option(
        name: .customLong("mdes-key-wrapping"), help: "How the AES key is wrapped: oaep-sha256 (default), oaep-sha512, pkcs1.")
    var keyWrapping: String = MDESEnvelopeOptions.KeyWrapping.oaepSHA256.rawValue
    @Option(name: .customLong("mdes-cipher"), help: "The payload cipher: gcm (default) or cbc.")
    var cipher: String = MDESEnvelopeOptions.CipherMode.gcm.rawValue
    @Option(name: .customLong("mdes-aes-bits"), help: "The one-time AES key: 128 (default) or 256.")
    var aesBits: Int = 128
    @Option(
        name: .customLong("mdes-fingerprint"),
        help: "publicKeyFingerprint: sha256 (default, what tenants mdes-key prints) or sha1 of the key's DER.")
    var fingerprint: String = MDESEnvelopeOptions.FingerprintDigest.sha256.rawValue

    /// What `--network mdes` runs with, each file read and checked.
    struct Settings: Sendable {
        var endpoint: MDESIssuerEndpoint
        var identity: MDESTLSIdentity
        var encryptor: MDESPayloadEncryptor
        var verifier: SandboxOAuthVerifier
    }

    /// Every flag `--network mdes` needs, checked before anything starts; a missing one is named.
    func settings() throws -> Settings {
        let missing = [
            ("--mdes-issuer-url", issuerURL), ("--mdes-client-cert", clientCertificate), ("--mdes-client-key", clientKey),
            ("--mdes-server-ca", serverCA), ("--mdes-issuer-public-key", issuerPublicKey),
            ("--mdes-oauth-public-key", oauthPublicKey),
        ].filter { $0.1?.isEmpty ?? true }.map(\.0)
        guard missing.isEmpty else {
            throw ProvisioError(.invalidArgument, "--network mdes needs \(missing.joined(separator: ", ")).")
        }
        guard let wrapping = MDESEnvelopeOptions.KeyWrapping(rawValue: keyWrapping) else {
            throw ProvisioError(.invalidArgument, "--mdes-key-wrapping is oaep-sha256, oaep-sha512 or pkcs1.")
        }
        guard let mode = MDESEnvelopeOptions.CipherMode(rawValue: cipher) else {
            throw ProvisioError(.invalidArgument, "--mdes-cipher is gcm or cbc.")
        }
        guard [128, 256].contains(aesBits) else { throw ProvisioError(.invalidArgument, "--mdes-aes-bits is 128 or 256.") }
        guard let digest = MDESEnvelopeOptions.FingerprintDigest(rawValue: fingerprint) else {
            throw ProvisioError(.invalidArgument, "--mdes-fingerprint is sha256 or sha1.")
        }
        let endpoint: MDESIssuerEndpoint
        do {
            endpoint = try MDESIssuerEndpoint(baseURL: issuerURL ?? "")
        } catch let error as ProvisioError {
            throw ProvisioError(.invalidArgument, "--mdes-issuer-url: \(error.message)")
        }
        let identity = try MDESTLSIdentity(
            certificateChainPEM: try Self.read(clientCertificate, "--mdes-client-cert"),
            privateKeyPEM: try Self.read(clientKey, "--mdes-client-key"),
            serverCAPEM: try Self.read(serverCA, "--mdes-server-ca"))
        let encryptor = try MDESPayloadEncryptor(
            publicKeyPEM: try Self.publicKeyPEM(try Self.read(issuerPublicKey, "--mdes-issuer-public-key")),
            options: MDESEnvelopeOptions(keyWrapping: wrapping, cipherMode: mode, aesKeyBits: aesBits, fingerprint: digest))
        let verifier = try SandboxOAuthVerifier(
            publicKeyPEM: try Self.read(oauthPublicKey, "--mdes-oauth-public-key"), consumerKey: oauthConsumerKey)
        return Settings(endpoint: endpoint, identity: identity, encryptor: encryptor, verifier: verifier)
    }

    /// Whether any MDES flag was given (they are refused with `--network provisio`).
    var anyGiven: Bool {
        [issuerURL, clientCertificate, clientKey, serverCA, issuerPublicKey, oauthPublicKey, oauthConsumerKey].contains {
            $0 != nil
        }
    }

    private static func read(_ path: String?, _ flag: String) throws -> String {
        guard let path, let data = FileManager.default.contents(atPath: path) else {
            throw ProvisioError(.invalidArgument, "\(flag): cannot read \(path ?? "the file").")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A PEM, or the JSON `tenants mdes-key` prints (`public_key_pem`).
    static func publicKeyPEM(_ text: String) throws -> String {
        guard text.drop(while: \.isWhitespace).first == "{" else { return text }
        struct Printed: Decodable {
            var publicKeyPEM: String
            enum CodingKeys: String, CodingKey { case publicKeyPEM = "public_key_pem" }
        }
        guard let printed = try? JSONDecoder().decode(Printed.self, from: Data(text.utf8)) else {
            throw ProvisioError(.invalidArgument, "--mdes-issuer-public-key holds JSON without public_key_pem.")
        }
        return printed.publicKeyPEM
    }
}
