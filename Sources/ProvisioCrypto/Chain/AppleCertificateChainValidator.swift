import Crypto
import Foundation
import ProvisioCore
import SwiftASN1
import X509
import _CryptoExtras

/// Validates the certificate chain PassKit hands to `generateRequestWithCertificateChain`.
///
/// Apple's provisioning PKI is a fixed three-level hierarchy, so the path is checked explicitly
/// rather than built by a general-purpose verifier; each refusal gets its own stable code:
///
/// 1. the leaf is the certificate carrying the critical extension 1.2.840.113635.100.6.39,
///    wherever it sits in the list;
/// 2. its issuer must be in the list and carry the marker 1.2.840.113635.100.6.2.15 and be a CA;
/// 3. the leaf key matches the scheme (ECC_V2: EC P-256 with keyAgreement; RSA_V2: RSA ≥ 2048
///    bits with keyEncipherment); no critical extension is left unexamined;
/// 4. a configured trust anchor with the intermediate's issuer name signed the intermediate, and
///    the intermediate signed the leaf;
/// 5. leaf, intermediate and anchor are all valid at the injected time.
public struct AppleCertificateChainValidator: AppleChainValidating {
    public let trustAnchors: [Certificate]

    /// Extensions we understand well enough to accept when marked critical.
    static let understoodCriticalExtensions: Set<ASN1ObjectIdentifier> = [
        .X509ExtensionID.basicConstraints,
        .X509ExtensionID.keyUsage,
        .X509ExtensionID.extendedKeyUsage,
        .X509ExtensionID.subjectAlternativeName,
        .X509ExtensionID.nameConstraints,
        AppleOIDs.provisioningEnciphermentLeaf,
        AppleOIDs.developerRelationsIntermediate,
    ]

    public init(trustAnchors: [Certificate]) {
        self.trustAnchors = trustAnchors
    }

    /// Apple Root CA - G3 plus any further anchors (a sandbox root).
    public static func production(additionalAnchors: [Certificate] = []) -> Self {
        Self(trustAnchors: [TrustAnchors.appleRootCAG3] + additionalAnchors)
    }

    /// Validates certificates given as base64 DER, as PassKit's `certificates` reach a server.
    public func validate(base64Certificates: [String], scheme: EncryptionScheme, at time: Date) throws
        -> ValidatedAppleChain
    {
        let der = try base64Certificates.enumerated().map { index, text in
            guard let bytes = BinaryText.decodeBase64(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw ProvisioError(.chainUndecodableCertificate, "Certificate \(index) is not base64.")
            }
            return bytes
        }
        return try validate(derCertificates: der, scheme: scheme, at: time)
    }

    public func validate(derCertificates: [Data], scheme: EncryptionScheme, at time: Date) throws -> ValidatedAppleChain {
        guard !derCertificates.isEmpty else {
            throw ProvisioError(.chainEmpty, "The certificate chain is empty.")
        }
        let certificates = try derCertificates.enumerated().map { index, der in
            do {
                return try Certificate(derEncoded: Array(der))
            } catch {
                throw ProvisioError(.chainUndecodableCertificate, "Certificate \(index) is not a DER X.509 certificate.")
            }
        }

        guard
            let leaf = certificates.first(where: { $0.extensions[oid: AppleOIDs.provisioningEnciphermentLeaf]?.critical == true })
        else {
            throw ProvisioError(
                .chainLeafExtensionMissing,
                "No certificate carries the critical Apple extension 1.2.840.113635.100.6.39 of the encipherment leaf."
            )
        }
        guard let intermediate = certificates.first(where: { $0 != leaf && $0.subject == leaf.issuer }) else {
            throw ProvisioError(.chainIntermediateMissing, "The chain does not contain the certificate that issued the leaf.")
        }
        guard intermediate.extensions[oid: AppleOIDs.developerRelationsIntermediate] != nil else {
            throw ProvisioError(
                .chainIntermediateMarkerMissing,
                "The intermediate does not carry Apple's marker extension 1.2.840.113635.100.6.2.15."
            )
        }
        guard case .isCertificateAuthority = try? intermediate.extensions.basicConstraints else {
            throw ProvisioError(.chainIntermediateNotCA, "The intermediate is not a certificate authority.")
        }

        let recipient = try Self.recipientKey(of: leaf, scheme: scheme)

        for certificate in [leaf, intermediate] {
            if let unhandled = certificate.extensions.first(where: {
                $0.critical && !Self.understoodCriticalExtensions.contains($0.oid)
            }) {
                throw ProvisioError(
                    .chainUnhandledCriticalExtension,
                    "Certificate '\(Self.commonName(certificate))' has an unknown critical extension \(unhandled.oid)."
                )
            }
        }

        let anchor = try self.anchor(for: intermediate)
        guard intermediate.publicKey.isValidSignature(leaf.signature, for: leaf) else {
            throw ProvisioError(.chainBadSignature, "The leaf's signature does not verify with the intermediate's key.")
        }
        let validated = ValidatedAppleChain(leaf: leaf, intermediate: intermediate, anchor: anchor, recipient: recipient)
        try Self.checkValidity(of: validated, at: time)
        return validated
    }

    /// The time-dependent part of validation, separate so a cached chain is re-checked each time.
    static func checkValidity(of chain: ValidatedAppleChain, at time: Date) throws {
        for certificate in [chain.leaf, chain.intermediate, chain.anchor] {
            if time > certificate.notValidAfter {
                throw ProvisioError(
                    .chainExpired,
                    "Certificate '\(Self.commonName(certificate))' expired at \(Self.timestamp(certificate.notValidAfter))."
                )
            }
            if time < certificate.notValidBefore {
                throw ProvisioError(
                    .chainNotYetValid,
                    "Certificate '\(Self.commonName(certificate))' is valid only from \(Self.timestamp(certificate.notValidBefore))."
                )
            }
        }
    }

    private func anchor(for intermediate: Certificate) throws -> Certificate {
        let candidates = trustAnchors.filter { $0.subject == intermediate.issuer }
        guard !candidates.isEmpty else {
            throw ProvisioError(
                .chainUnknownRoot,
                "The intermediate was issued by '\(intermediate.issuer)', which is not a configured trust anchor."
            )
        }
        guard let anchor = candidates.first(where: { $0.publicKey.isValidSignature(intermediate.signature, for: intermediate) })
        else {
            throw ProvisioError(.chainBadSignature, "The intermediate's signature does not verify with the trust anchor's key.")
        }
        return anchor
    }

    private static func recipientKey(of leaf: Certificate, scheme: EncryptionScheme) throws -> RecipientPublicKey {
        let usage = try? leaf.extensions.keyUsage
        switch scheme {
        case .eccV2:
            guard let signingForm = P256.Signing.PublicKey(leaf.publicKey),
                let key = try? P256.KeyAgreement.PublicKey(rawRepresentation: signingForm.rawRepresentation)
            else {
                throw ProvisioError(.chainWrongKeyType, "ECC_V2 needs a leaf with an EC P-256 key.")
            }
            guard usage?.keyAgreement == true else {
                throw ProvisioError(.chainKeyUsageMissing, "The leaf's key usage does not include keyAgreement.")
            }
            return .p256(P256Recipient(key))
        case .rsaV2:
            guard let signingForm = _RSA.Signing.PublicKey(leaf.publicKey),
                let key = try? _RSA.Encryption.PublicKey(derRepresentation: signingForm.derRepresentation)
            else {
                throw ProvisioError(.chainWrongKeyType, "RSA_V2 needs a leaf with an RSA key of at least 2048 bits.")
            }
            guard usage?.keyEncipherment == true else {
                throw ProvisioError(.chainKeyUsageMissing, "The leaf's key usage does not include keyEncipherment.")
            }
            return .rsa(subjectPublicKeyInfo: key.derRepresentation)
        }
    }

    static func commonName(_ certificate: Certificate) -> String {
        for rdn in certificate.subject {
            for attribute in rdn where attribute.type == .RDNAttributeType.commonName {
                return String(describing: attribute.value)
            }
        }
        return String(describing: certificate.subject)
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
