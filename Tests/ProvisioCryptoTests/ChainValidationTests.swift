import Crypto
import Foundation
import ProvisioCore
import ProvisioSandbox
import Testing
import X509

@testable import ProvisioCrypto

@Suite struct ProductionChainTests {
    let chain = Fixtures.productionChain.certificatesDERBase64
    let validator = AppleCertificateChainValidator.production()

    @Test func realAppleChainValidatesOnItsDay() throws {
        let validated = try validator.validate(
            base64Certificates: chain, scheme: .eccV2, at: Fixtures.date(Fixtures.productionChain.validAt))
        #expect(AppleCertificateChainValidator.commonName(validated.leaf) == "ecc-crypto-services-encipherment_UC6-PROD")
        #expect(
            AppleCertificateChainValidator.commonName(validated.intermediate) == "Apple Worldwide Developer Relations CA - G2")
        #expect(validated.anchor == TrustAnchors.appleRootCAG3)
        guard case .p256 = validated.recipient else { Issue.record("expected a P-256 recipient"); return }
    }

    @Test func realAppleChainIsExpiredToday() throws {
        for time in [Fixtures.today, Date()] {
            let error = #expect(throws: ProvisioError.self) {
                try validator.validate(base64Certificates: chain, scheme: .eccV2, at: time)
            }
            #expect(error?.code == .chainExpired)
            #expect(error?.message.contains("2020-06-30T22:14:15Z") == true)
        }
        // One second past notAfter is already refused.
        let justAfter = Fixtures.date(Fixtures.productionChain.leafNotAfter).addingTimeInterval(1)
        #expect(
            (#expect(throws: ProvisioError.self) {
                try validator.validate(base64Certificates: chain, scheme: .eccV2, at: justAfter)
            })?.code == .chainExpired)
        #expect(throws: Never.self) {
            try validator.validate(base64Certificates: chain, scheme: .eccV2, at: justAfter.addingTimeInterval(-1))
        }
    }

    @Test func notYetValidBeforeTheLeafWasIssued() {
        let error = #expect(throws: ProvisioError.self) {
            try validator.validate(base64Certificates: chain, scheme: .eccV2, at: Fixtures.date("2018-01-01T00:00:00Z"))
        }
        #expect(error?.code == .chainNotYetValid)
    }

    @Test func leafIsFoundByItsExtensionNotItsPosition() throws {
        let validated = try validator.validate(
            base64Certificates: chain.reversed(), scheme: .eccV2, at: Fixtures.date("2020-01-01T00:00:00Z"))
        #expect(AppleCertificateChainValidator.commonName(validated.leaf) == "ecc-crypto-services-encipherment_UC6-PROD")
    }

    @Test func unknownRootWithoutAppleAnchor() {
        let sandboxOnly = AppleCertificateChainValidator(trustAnchors: [Fixtures.sandboxCA.root])
        let error = #expect(throws: ProvisioError.self) {
            try sandboxOnly.validate(base64Certificates: chain, scheme: .eccV2, at: Fixtures.date("2020-01-01T00:00:00Z"))
        }
        #expect(error?.code == .chainUnknownRoot)
    }

    @Test func rsaSchemeRefusesTheECLeaf() {
        let error = #expect(throws: ProvisioError.self) {
            try validator.validate(base64Certificates: chain, scheme: .rsaV2, at: Fixtures.date("2020-01-01T00:00:00Z"))
        }
        #expect(error?.code == .chainWrongKeyType)
    }

    @Test func bundledRootIsAppleRootCAG3() {
        let fingerprint = SHA256.hash(data: try! SandboxCertificateAuthority.der(TrustAnchors.appleRootCAG3))
        #expect(BinaryText.lowercaseHex(fingerprint) == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
    }
}

@Suite struct SandboxChainTests {
    static let now = Fixtures.today
    let ca = Fixtures.sandboxCA
    var validator: AppleCertificateChainValidator { .production(additionalAnchors: [ca.root]) }

    func generate(_ configure: (inout SandboxCAProfile) -> Void) throws -> SandboxCertificateAuthority {
        var profile = SandboxCAProfile(now: Self.now)
        profile.issuesRSALeaf = false
        configure(&profile)
        return try SandboxCertificateAuthority.generate(profile: profile)
    }

    func refusal(_ chain: [Data], scheme: EncryptionScheme = .eccV2, anchors: [Certificate]? = nil, at time: Date = now)
        -> ProvisioError.Code?
    {
        let validator = anchors.map(AppleCertificateChainValidator.init(trustAnchors:)) ?? validator
        do {
            _ = try validator.validate(derCertificates: chain, scheme: scheme, at: time)
            return nil
        } catch let error as ProvisioError {
            return error.code
        } catch {
            return ProvisioError.Code("unexpected \(error)")
        }
    }

    @Test func sandboxChainsValidateForBothSchemes() throws {
        let ecc = try validator.validate(derCertificates: ca.chainDER(for: .eccV2), scheme: .eccV2, at: Self.now)
        guard case .p256 = ecc.recipient else { Issue.record("expected P-256"); return }
        let rsa = try validator.validate(derCertificates: ca.chainDER(for: .rsaV2), scheme: .rsaV2, at: Self.now)
        guard case .rsa = rsa.recipient else { Issue.record("expected RSA"); return }
        #expect(ecc.anchor == ca.root)
    }

    @Test func sandboxLeafLooksLikeApples() throws {
        let extensions = ca.eccLeaf.extensions
        #expect(extensions[oid: AppleOIDs.provisioningEnciphermentLeaf]?.critical == true)
        #expect(try extensions.keyUsage == KeyUsage(keyEncipherment: true, keyAgreement: true))
        #expect(ca.intermediate.extensions[oid: AppleOIDs.developerRelationsIntermediate] != nil)
        #expect(AppleCertificateChainValidator.commonName(ca.eccLeaf).hasPrefix("ecc-crypto-services-encipherment"))
    }

    @Test func emptyChain() {
        #expect(refusal([]) == .chainEmpty)
    }

    @Test func undecodableDER() throws {
        #expect(refusal([Data("not a certificate".utf8)]) == .chainUndecodableCertificate)
        var truncated = try ca.chainDER(for: .eccV2)
        truncated[0] = truncated[0].prefix(100)
        #expect(refusal(truncated) == .chainUndecodableCertificate)
        let error = #expect(throws: ProvisioError.self) {
            try validator.validate(base64Certificates: ["@@@not base64@@@"], scheme: .eccV2, at: Self.now)
        }
        #expect(error?.code == .chainUndecodableCertificate)
    }

    @Test func leafExtensionMissing() throws {
        let bad = try generate { $0.leafCarriesAppleExtension = false }
        #expect(refusal(try bad.chainDER(for: .eccV2), anchors: [bad.root]) == .chainLeafExtensionMissing)
    }

    @Test func intermediateMissing() throws {
        #expect(refusal([try ca.chainDER(for: .eccV2)[0]]) == .chainIntermediateMissing)
    }

    @Test func intermediateMarkerMissing() throws {
        let bad = try generate { $0.intermediateCarriesMarker = false }
        #expect(refusal(try bad.chainDER(for: .eccV2), anchors: [bad.root]) == .chainIntermediateMarkerMissing)
    }

    @Test func wrongKeyTypeOrCurve() throws {
        let p384 = try generate { $0.leafCurve = .p384 }
        #expect(refusal(try p384.chainDER(for: .eccV2), anchors: [p384.root]) == .chainWrongKeyType)
        #expect(refusal(try ca.chainDER(for: .rsaV2), scheme: .eccV2) == .chainWrongKeyType)
        #expect(refusal(try ca.chainDER(for: .eccV2), scheme: .rsaV2) == .chainWrongKeyType)
    }

    @Test func keyUsageMissing() throws {
        let bad = try generate { $0.eccLeafKeyUsage = KeyUsage(keyEncipherment: true) }
        #expect(refusal(try bad.chainDER(for: .eccV2), anchors: [bad.root]) == .chainKeyUsageMissing)
    }

    @Test func unknownRoot() throws {
        let other = try generate { _ in }
        // Same names as `ca`, so only the key tells them apart: no anchor at all is unknown...
        #expect(refusal(try other.chainDER(for: .eccV2), anchors: [TrustAnchors.appleRootCAG3]) == .chainUnknownRoot)
        #expect(refusal(try other.chainDER(for: .eccV2), anchors: []) == .chainUnknownRoot)
    }

    @Test func badSignatures() throws {
        let other = try generate { _ in }
        // ...while an anchor with the right name but another key is a bad signature.
        #expect(refusal(try other.chainDER(for: .eccV2), anchors: [ca.root]) == .chainBadSignature)
        // A leaf from one CA presented with another CA's (same-named) intermediate.
        let spliced = [try ca.chainDER(for: .eccV2)[0], try other.chainDER(for: .eccV2)[1]]
        #expect(refusal(spliced, anchors: [other.root]) == .chainBadSignature)
    }

    @Test func expiredAndNotYetValid() throws {
        let chain = try ca.chainDER(for: .eccV2)
        #expect(refusal(chain, at: ca.eccLeaf.notValidAfter.addingTimeInterval(1)) == .chainExpired)
        #expect(refusal(chain, at: ca.eccLeaf.notValidBefore.addingTimeInterval(-1)) == .chainNotYetValid)
    }

    @Test func extraCertificatesInTheListAreIgnored() throws {
        var chain = try ca.chainDER(for: .eccV2)
        chain.append(try SandboxCertificateAuthority.der(ca.root))
        chain.insert(try SandboxCertificateAuthority.der(TrustAnchors.appleRootCAG3), at: 0)
        #expect(refusal(chain) == nil)
    }
}

@Suite struct TrustAnchorTests {
    @Test func loadsPEMAndRefusesGarbage() throws {
        let pem = try SandboxCertificateAuthority.pem(Fixtures.sandboxCA.root)
        #expect(try TrustAnchors.parse(pem: pem) == [Fixtures.sandboxCA.root])
        #expect((#expect(throws: ProvisioError.self) { try TrustAnchors.parse(pem: "hello") })?.code == .trustAnchorInvalid)
        #expect(
            (#expect(throws: ProvisioError.self) { try TrustAnchors.load(pemFile: "/nonexistent/root.pem") })?.code
                == .trustAnchorInvalid)
    }
}
