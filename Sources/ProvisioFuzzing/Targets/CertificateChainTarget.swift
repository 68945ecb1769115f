import Foundation
import ProvisioCore
import ProvisioCrypto
import X509

/// The PassKit certificate chain: `AppleCertificateChainValidator.validate(derCertificates:)` and
/// `validate(base64Certificates:)`, with Apple Root CA - G3 and the corpus's sandbox roots as
/// anchors, at 2020-01-01T00:00:00Z (when the committed Apple production chain was valid).
///
/// Input: an optional first line `RSA_V2` or `ECC_V2` (the scheme; ECC_V2 without it), then either
/// DER certificates back to back (when the next byte is 0x30, a SEQUENCE) — split at their outer
/// lengths, so mutated lengths move the boundaries — or base64 certificates one per line.
///
/// Accepted: the leaf carries the critical Apple extension, the intermediate issued it, carries the
/// marker and is a CA, the anchor is configured and issued the intermediate, all three are valid at
/// the time, leaf and intermediate are certificates of the input, and the recipient key has the
/// scheme's type. DER inputs are also validated as base64 and must get the same outcome.
public struct CertificateChainTarget: FuzzTarget {
    public let name = "certificate-chain"
    public let validator: AppleCertificateChainValidator

    /// The fixed "now" of every run: 2020-01-01T00:00:00Z.
    public static let time = Date(timeIntervalSince1970: 1_577_836_800)
    public static let codes: Set<String> = [
        "chain_empty", "chain_undecodable_certificate", "chain_leaf_extension_missing", "chain_intermediate_missing",
        "chain_intermediate_marker_missing", "chain_intermediate_not_ca", "chain_wrong_key_type", "chain_key_usage_missing",
        "chain_unhandled_critical_extension", "chain_unknown_root", "chain_bad_signature", "chain_expired",
        "chain_not_yet_valid",
    ]
    /// At most this many certificates are split out of a DER input; the rest stays in the last one.
    static let maxCertificates = 32

    public init() {
        validator = .production(additionalAnchors: Self.sandboxAnchors)
    }

    public var dictionary: [[UInt8]] {
        [
            Array("RSA_V2\n".utf8), Array("ECC_V2\n".utf8), Array("rsa_v2\n".utf8), Array("\n".utf8), Array("\r\n".utf8),
            Array("MII".utf8), Array("==".utf8), Array("-_".utf8),
            // The Apple leaf extension and the intermediate marker, as DER OIDs.
            [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x06, 0x27],
            [0x06, 0x0A, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x06, 0x02, 0x0F],
            // basicConstraints CA:TRUE, critical; keyUsage; a critical flag; NULL.
            [0x30, 0x0F, 0x06, 0x03, 0x55, 0x1D, 0x13, 0x01, 0x01, 0xFF, 0x04, 0x05, 0x30, 0x03, 0x01, 0x01, 0xFF],
            [0x06, 0x03, 0x55, 0x1D, 0x0F], [0x01, 0x01, 0xFF], [0x01, 0x01, 0x00], [0x05, 0x00],
            // ecdsa-with-SHA256, id-ecPublicKey, prime256v1, secp384r1, rsaEncryption.
            [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02], [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01],
            [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07], [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22],
            [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01],
            // UTCTime / GeneralizedTime heads and a date far out.
            [0x17, 0x0D], [0x18, 0x0F], Array("991231235959Z".utf8), Array("20500101000000Z".utf8),
        ]
    }

    enum Input {
        case der([Data])
        case base64([String])
    }

    /// How an input is read (see the type's documentation).
    static func parse(_ input: [UInt8]) -> (scheme: EncryptionScheme, certificates: Input) {
        var body = input[...]
        var scheme = EncryptionScheme.eccV2
        for (prefix, named) in [("RSA_V2\n", EncryptionScheme.rsaV2), ("ECC_V2\n", .eccV2)]
        where body.starts(with: prefix.utf8) {
            scheme = named
            body = body.dropFirst(prefix.utf8.count)
        }
        if body.first == 0x30 { return (scheme, .der(splitDER(body))) }
        var lines = String(decoding: body, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        if lines.last == "" { lines.removeLast() }
        return (scheme, .base64(lines))
    }

    /// Splits back-to-back DER values at their outer lengths; a length that runs past the end (or
    /// that is not a definite DER length) takes the rest of the input.
    static func splitDER(_ bytes: ArraySlice<UInt8>) -> [Data] {
        var pieces: [Data] = []
        var position = bytes.startIndex
        while position < bytes.endIndex {
            var end = bytes.endIndex
            if pieces.count < maxCertificates - 1, position + 1 < bytes.endIndex {
                let first = bytes[position + 1]
                var header = 2
                var length: Int?
                if first < 0x80 {
                    length = Int(first)
                } else if (0x81...0x84).contains(first), position + 2 + Int(first & 0x7F) <= bytes.endIndex {
                    header += Int(first & 0x7F)
                    length = bytes[(position + 2)..<(position + header)].reduce(0) { $0 << 8 | Int($1) }
                }
                if let length, length <= bytes.endIndex - position - header {
                    end = position + header + length
                }
            }
            pieces.append(Data(bytes[position..<end]))
            position = end
        }
        return pieces
    }

    public func run(input: [UInt8]) -> FuzzOutcome {
        let (scheme, certificates) = Self.parse(input)
        switch certificates {
        case .der(let der):
            let outcome = check(scheme: scheme, decoded: der) {
                try validator.validate(derCertificates: der, scheme: scheme, at: Self.time)
            }
            // The two entry points agree.
            let viaBase64 = check(scheme: scheme, decoded: der) {
                try validator.validate(base64Certificates: der.map { $0.base64EncodedString() }, scheme: scheme, at: Self.time)
            }
            if !outcome.isViolation, viaBase64 != outcome {
                return .violation("validated as DER: \(outcome); the same certificates as base64: \(viaBase64)")
            }
            return outcome
        case .base64(let lines):
            let decoded = lines.compactMap { BinaryText.decodeBase64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return check(scheme: scheme, decoded: decoded) {
                try validator.validate(base64Certificates: lines, scheme: scheme, at: Self.time)
            }
        }
    }

    private func check(scheme: EncryptionScheme, decoded: [Data], _ validate: () throws -> ValidatedAppleChain)
        -> FuzzOutcome
    {
        let chain: ValidatedAppleChain
        do {
            chain = try validate()
        } catch {
            return FuzzChecks.refusal(error, codes: Self.codes)
        }
        let leaf = chain.leaf
        let intermediate = chain.intermediate
        guard leaf.extensions[oid: AppleOIDs.provisioningEnciphermentLeaf]?.critical == true else {
            return .violation("accepted a leaf without the critical Apple extension")
        }
        guard intermediate != leaf, intermediate.subject == leaf.issuer else {
            return .violation("accepted an intermediate that did not issue the leaf")
        }
        guard intermediate.extensions[oid: AppleOIDs.developerRelationsIntermediate] != nil,
            case .isCertificateAuthority = try? intermediate.extensions.basicConstraints
        else { return .violation("accepted an intermediate without the marker or not a CA") }
        guard validator.trustAnchors.contains(chain.anchor), chain.anchor.subject == intermediate.issuer else {
            return .violation("accepted a chain whose anchor is not a configured one that issued the intermediate")
        }
        guard intermediate.publicKey.isValidSignature(leaf.signature, for: leaf),
            chain.anchor.publicKey.isValidSignature(intermediate.signature, for: intermediate)
        else { return .violation("accepted a chain whose signatures do not verify") }
        for certificate in [leaf, intermediate, chain.anchor]
        where !(certificate.notValidBefore...certificate.notValidAfter).contains(Self.time) {
            return .violation("accepted a certificate that is not valid at the time")
        }
        let inputCertificates = decoded.compactMap { try? Certificate(derEncoded: Array($0)) }
        guard inputCertificates.contains(leaf), inputCertificates.contains(intermediate) else {
            return .violation("the validated leaf or intermediate is not one of the input's certificates")
        }
        switch (scheme, chain.recipient) {
        case (.eccV2, .p256), (.rsaV2, .rsa): break
        default: return .violation("the recipient key does not have the type of \(scheme.rawValue)")
        }
        return .accepted
    }

    /// The sandbox roots the corpus's sandbox chains lead to (`SandboxCertificateAuthority`,
    /// generated once; their private keys were discarded): one for chains valid at `time`, one for
    /// chains that expired before it, one for chains not yet valid.
    static let sandboxAnchors: [Certificate] = {
        guard let anchors = try? TrustAnchors.parse(pem: sandboxAnchorsPEM) else {
            preconditionFailure("The fuzzer's embedded sandbox anchors do not parse")
        }
        return anchors
    }()

    static let sandboxAnchorsPEM = """
        -----BEGIN CERTIFICATE-----
        MIICdzCCAf2gAwIBAgIUHMvDd3twVIoGEylqGrTfusZz0zEwCgYIKoZIzj0EAwMw
        ezEmMCQGA1UEAwwdUHJvdmlzaW8gU2FuZGJveCBSb290IENBIC0gRzMxMTAvBgNV
        BAsMKFByb3Zpc2lvIFNhbmRib3ggQ2VydGlmaWNhdGlvbiBBdXRob3JpdHkxETAP
        BgNVBAoMCFByb3Zpc2lvMQswCQYDVQQGEwJVUzAeFw0xOTA1MzEwMDAwMDBaFw00
        NTA1MjUwMDAwMDBaMHsxJjAkBgNVBAMMHVByb3Zpc2lvIFNhbmRib3ggUm9vdCBD
        QSAtIEczMTEwLwYDVQQLDChQcm92aXNpbyBTYW5kYm94IENlcnRpZmljYXRpb24g
        QXV0aG9yaXR5MREwDwYDVQQKDAhQcm92aXNpbzELMAkGA1UEBhMCVVMwdjAQBgcq
        hkjOPQIBBgUrgQQAIgNiAARnds+Ere0UJDECcYxNMWMWavneMFF/H0tzBxx3u9Ug
        RqHbS5NxDm1e32YfwSe2sRpHwCI86wTjIJ58+vnlRnIQIaqkUkVJqAIwabRAoFml
        +n8LbjKI9dziC+0wain4KASjQjBAMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/
        BAQDAgEGMB0GA1UdDgQWBBS6Osxbx5LGyMyL1SW1nn/uDL/S7zAKBggqhkjOPQQD
        AwNoADBlAjAOJmhz2iMz502D0QcboXv1ase51vJjDBQJOenEGvRDbzbYZ6TAjjTy
        KhI0HCKAYigCMQDwWIyE8vSLoPHB0xDePBj/BiN30CptTt0Dy2wyNLfVUPavIasF
        g+gYT/FrakzjI/Q=
        -----END CERTIFICATE-----
        -----BEGIN CERTIFICATE-----
        MIICdzCCAf6gAwIBAgIVAMu4kJKBVt/+kHAcQay2hQV8P5obMAoGCCqGSM49BAMD
        MHsxJjAkBgNVBAMMHVByb3Zpc2lvIFNhbmRib3ggUm9vdCBDQSAtIEczMTEwLwYD
        VQQLDChQcm92aXNpbyBTYW5kYm94IENlcnRpZmljYXRpb24gQXV0aG9yaXR5MREw
        DwYDVQQKDAhQcm92aXNpbzELMAkGA1UEBhMCVVMwHhcNMTUxMjMxMDAwMDAwWhcN
        MTcxMjMxMDAwMDAwWjB7MSYwJAYDVQQDDB1Qcm92aXNpbyBTYW5kYm94IFJvb3Qg
        Q0EgLSBHMzExMC8GA1UECwwoUHJvdmlzaW8gU2FuZGJveCBDZXJ0aWZpY2F0aW9u
        IEF1dGhvcml0eTERMA8GA1UECgwIUHJvdmlzaW8xCzAJBgNVBAYTAlVTMHYwEAYH
        KoZIzj0CAQYFK4EEACIDYgAEcBF/IbUAh+lBDbPH2tKS8wd6Za0yZRCKZjKX3nhn
        7uN86/j+jnp5bx2Cg0LNj33BN5hp3aNqy4wV8JpSuHKiay73qnW5Cth37ox8qFb0
        P4hBxKXio3o2ZDCQGJrOhvF3o0IwQDAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB
        /wQEAwIBBjAdBgNVHQ4EFgQU9lwajR0J+HQm8ki2g9aCe7ldYA4wCgYIKoZIzj0E
        AwMDZwAwZAIwJD6MOWFxw8XJyt6cn6tFXWN0b/9xpayHgE6fgZXHZb0QYbD5k5r3
        Ij7QkRvGyBvTAjBuLhbHFGE4Jre6f0a49xwAW7Z6pKt632mbyJ+451uP7e3q7yqe
        7wjtF4d9eIAWVNQ=
        -----END CERTIFICATE-----
        -----BEGIN CERTIFICATE-----
        MIICdzCCAf2gAwIBAgIUR7MG66pdsciBT6GbUbm6LvasgTMwCgYIKoZIzj0EAwMw
        ezEmMCQGA1UEAwwdUHJvdmlzaW8gU2FuZGJveCBSb290IENBIC0gRzMxMTAvBgNV
        BAsMKFByb3Zpc2lvIFNhbmRib3ggQ2VydGlmaWNhdGlvbiBBdXRob3JpdHkxETAP
        BgNVBAoMCFByb3Zpc2lvMQswCQYDVQQGEwJVUzAeFw0yMDEyMzEwMDAwMDBaFw0y
        NDAxMDEwMDAwMDBaMHsxJjAkBgNVBAMMHVByb3Zpc2lvIFNhbmRib3ggUm9vdCBD
        QSAtIEczMTEwLwYDVQQLDChQcm92aXNpbyBTYW5kYm94IENlcnRpZmljYXRpb24g
        QXV0aG9yaXR5MREwDwYDVQQKDAhQcm92aXNpbzELMAkGA1UEBhMCVVMwdjAQBgcq
        hkjOPQIBBgUrgQQAIgNiAASA8eXNkzDqwZQdEimv8P6L2/EXjF15o2Dbc7FMmDU+
        NXixSBJhwT8AdgKrcCafx3FTlN+vD/o4vJztAOxv/4gXOP1DpiHHYkOSay8TY2ki
        JcJ/ryIbAoZdAkQcbgwGGs2jQjBAMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/
        BAQDAgEGMB0GA1UdDgQWBBTTNPBFK3XU52gHrXFd5ZxdFmWzZjAKBggqhkjOPQQD
        AwNoADBlAjB13vlkct297uGEOFITXP2M3d1gzd8u+rXj+S52I/H+m3mMg5QfVrFX
        BMWpC0W47T8CMQCSOe5mCThgkJ4h/M36ElLf50iGeVF+uXyz6HCYTasDMfv2qGH9
        RZ4c4+lCCs3J274=
        -----END CERTIFICATE-----
        """
}
