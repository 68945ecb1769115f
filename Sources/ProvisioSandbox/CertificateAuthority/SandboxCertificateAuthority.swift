import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto
import SwiftASN1
import X509
import _CryptoExtras

/// An Apple-like provisioning PKI for the sandbox: a root (P-384, like Apple Root CA - G3), an
/// intermediate carrying Apple's marker 1.2.840.113635.100.6.2.15, and the
/// `ecc-crypto-services-encipherment` leaves — EC P-256 for ECC_V2 and RSA-2048 for RSA_V2 —
/// with the critical extension 1.2.840.113635.100.6.39 and keyAgreement + keyEncipherment. It
/// keeps the leaves' private keys, which the sandbox's Apple service opens payloads with.
public struct SandboxCertificateAuthority: Sendable {
    public let root: Certificate
    public let intermediate: Certificate
    public let eccLeaf: Certificate
    /// PKCS#8 PEM of the ECC leaf's private key.
    public let eccLeafKeyPEM: String
    public let rsaLeaf: Certificate?
    /// PKCS#8 PEM of the RSA leaf's private key.
    public let rsaLeafKeyPEM: String?

    public static func generate(profile: SandboxCAProfile) throws -> SandboxCertificateAuthority {
        let rootKey = P384.Signing.PrivateKey()
        let rootName = try name("Provisio Sandbox Root CA - G3", unit: "Provisio Sandbox Certification Authority")
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
            notValidBefore: profile.notValidBefore, notValidAfter: profile.notValidAfter.addingTimeInterval(365 * 24 * 3600),
            issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: Certificate.PublicKey(rootKey.publicKey))
            },
            issuerPrivateKey: .init(rootKey)
        )

        let intermediateKey = P256.Signing.PrivateKey()
        let intermediateName = try name(
            "Provisio Sandbox Worldwide Developer Relations CA - G2", unit: "Provisio Sandbox Certification Authority")
        let intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey),
            notValidBefore: profile.notValidBefore, notValidAfter: profile.notValidAfter.addingTimeInterval(180 * 24 * 3600),
            issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: Certificate.PublicKey(intermediateKey.publicKey))
                if profile.intermediateCarriesMarker {
                    Certificate.Extension(oid: AppleOIDs.developerRelationsIntermediate, critical: false, value: derNull)
                }
            },
            issuerPrivateKey: .init(rootKey)
        )

        func leafName(_ suffix: String) throws -> DistinguishedName {
            try name("ecc-crypto-services-encipherment_UC6-\(suffix)", unit: "Provisio Sandbox")
        }
        func leafExtensions(_ usage: KeyUsage) throws -> Certificate.Extensions {
            try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(usage)
                if profile.leafCarriesAppleExtension {
                    Certificate.Extension(oid: AppleOIDs.provisioningEnciphermentLeaf, critical: true, value: derNull)
                }
            }
        }

        let eccLeafPublicKey: Certificate.PublicKey
        let eccLeafKeyPEM: String
        switch profile.leafCurve {
        case .p256:
            let key = P256.KeyAgreement.PrivateKey()
            eccLeafPublicKey = .init(try P256.Signing.PublicKey(rawRepresentation: key.publicKey.rawRepresentation))
            eccLeafKeyPEM = key.pemRepresentation
        case .p384:
            let key = P384.KeyAgreement.PrivateKey()
            eccLeafPublicKey = .init(try P384.Signing.PublicKey(rawRepresentation: key.publicKey.rawRepresentation))
            eccLeafKeyPEM = key.pemRepresentation
        }
        let eccLeaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: eccLeafPublicKey,
            notValidBefore: profile.notValidBefore, notValidAfter: profile.notValidAfter,
            issuer: intermediateName, subject: try leafName("SANDBOX"), signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try leafExtensions(profile.eccLeafKeyUsage),
            issuerPrivateKey: .init(intermediateKey)
        )

        var rsaLeaf: Certificate?
        var rsaLeafKeyPEM: String?
        if profile.issuesRSALeaf {
            let key = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
            let publicKey = try _RSA.Signing.PublicKey(derRepresentation: key.publicKey.derRepresentation)
            rsaLeaf = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(publicKey),
                notValidBefore: profile.notValidBefore, notValidAfter: profile.notValidAfter,
                issuer: intermediateName, subject: try leafName("SANDBOX-RSA"), signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try leafExtensions(profile.rsaLeafKeyUsage),
                issuerPrivateKey: .init(intermediateKey)
            )
            rsaLeafKeyPEM = key.pemRepresentation
        }
        return SandboxCertificateAuthority(
            root: root, intermediate: intermediate, eccLeaf: eccLeaf, eccLeafKeyPEM: eccLeafKeyPEM,
            rsaLeaf: rsaLeaf, rsaLeafKeyPEM: rsaLeafKeyPEM)
    }

    /// The chain as PassKit hands it to the app: leaf first, then the intermediate, DER.
    public func chainDER(for scheme: EncryptionScheme) throws -> [Data] {
        let leaf: Certificate
        switch scheme {
        case .eccV2: leaf = eccLeaf
        case .rsaV2:
            guard let rsaLeaf else {
                throw ProvisioError(.sandboxLeafUnavailable, "This sandbox CA was generated without an RSA leaf.")
            }
            leaf = rsaLeaf
        }
        return [try Self.der(leaf), try Self.der(intermediate)]
    }

    /// The chain as base64 DER strings, the form an app sends to its server.
    public func chainBase64(for scheme: EncryptionScheme) throws -> [String] {
        try chainDER(for: scheme).map { $0.base64EncodedString() }
    }

    public func eccOpener() throws -> ECCV2Opener {
        guard let key = try? P256.KeyAgreement.PrivateKey(pemRepresentation: eccLeafKeyPEM) else {
            throw ProvisioError(.sandboxLeafUnavailable, "The ECC leaf of this sandbox CA is not a P-256 key.")
        }
        return ECCV2Opener(privateKey: key)
    }

    public func rsaOpener() throws -> RSAV2Opener {
        guard let pem = rsaLeafKeyPEM, let key = try? _RSA.Encryption.PrivateKey(pemRepresentation: pem) else {
            throw ProvisioError(.sandboxLeafUnavailable, "This sandbox CA has no usable RSA leaf key.")
        }
        return RSAV2Opener(privateKey: key)
    }

    public static func der(_ certificate: Certificate) throws -> Data {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return Data(serializer.serializedBytes)
    }

    public static func pem(_ certificate: Certificate) throws -> String {
        try certificate.serializeAsPEM().pemString
    }

    /// Names mirror Apple's (CN, OU, O, C) but say "Provisio Sandbox" so nobody mistakes them.
    private static func name(_ commonName: String, unit: String) throws -> DistinguishedName {
        try DistinguishedName {
            CommonName(commonName)
            OrganizationalUnitName(unit)
            OrganizationName("Provisio")
            CountryName("US")
        }
    }

    /// DER encoding of ASN.1 NULL, the value Apple's marker extensions carry.
    static let derNull: ArraySlice<UInt8> = [0x05, 0x00]
}
