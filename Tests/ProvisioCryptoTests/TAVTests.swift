import Crypto
import Foundation
import ProvisioCore
import Testing

@testable import ProvisioCrypto

@Suite struct TAVTests {
    let key = P256.Signing.PrivateKey()
    var signer: TAVSigner { TAVSigner(privateKey: key) }
    var verifier: TAVVerifier { TAVVerifier(publicKey: key.publicKey) }
    let validUntil = Fixtures.date("2026-11-22T00:30:00Z")

    func sign() throws -> String {
        try signer.sign(pan: Fixtures.pan, expiry: Fixtures.expiry, validUntil: validUntil.addingTimeInterval(0.7))
    }

    func code(_ body: () throws -> Void) -> ProvisioError.Code? {
        do { try body(); return nil } catch let error as ProvisioError { return error.code } catch {
            return ProvisioError.Code("unexpected")
        }
    }

    @Test func layoutFollowsMastercardsTAV() throws {
        let tav = try TokenAuthenticationValue(activationData: sign())
        #expect(tav.version == "3")
        #expect(tav.signatureAlgorithm == "ECDSA_P256_SHA256")
        #expect(tav.includedFieldsInOrder == "accountNumber|expiryDate|dataValidUntilTimestamp")
        #expect(tav.dataValidUntilTimestamp == "2026-11-22T00:30:00Z")
        #expect(tav.keyId == signer.keyId && tav.keyId.count == 16)
        // The signature covers exactly "PAN|MMYY|dataValidUntilTimestamp".
        let signature = try P256.Signing.ECDSASignature(derRepresentation: Data(base64Encoded: tav.signature)!)
        #expect(key.publicKey.isValidSignature(signature, for: Data("4111111111111111|1230|2026-11-22T00:30:00Z".utf8)))
    }

    @Test func verifiesUntilTheEndOfItsWindow() throws {
        let data = try sign()
        #expect(
            code { try verifier.verify(activationData: data, pan: Fixtures.pan, expiry: Fixtures.expiry, at: validUntil) } == nil)
        #expect(
            code {
                try verifier.verify(
                    activationData: data, pan: Fixtures.pan, expiry: Fixtures.expiry, at: validUntil.addingTimeInterval(1))
            } == .tavExpired)
    }

    @Test func refusesAnotherCardOrExpiry() throws {
        let data = try sign()
        let otherPAN = try PrimaryAccountNumber("5500000000000004")
        #expect(
            code { try verifier.verify(activationData: data, pan: otherPAN, expiry: Fixtures.expiry, at: Fixtures.today) }
                == .tavBadSignature)
        #expect(
            code {
                try verifier.verify(
                    activationData: data, pan: Fixtures.pan, expiry: try CardExpiry(month: 11, year: 2030), at: Fixtures.today)
            } == .tavBadSignature)
    }

    /// `encoded()` writes its JSON by hand; it must stay what JSONEncoder with sorted keys writes.
    @Test func encodingMatchesJSONEncoder() throws {
        let tav = try TokenAuthenticationValue(activationData: sign())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(BinaryText.decodeBase64(tav.encoded()) == (try encoder.encode(tav)))
        var odd = tav
        odd.keyId = "a/b\"c\\d\u{1}é"
        #expect(BinaryText.decodeBase64(odd.encoded()) == (try encoder.encode(odd)))
    }

    @Test func refusesForgeries() throws {
        var tav = try TokenAuthenticationValue(activationData: sign())
        // Extending the window without re-signing.
        tav.dataValidUntilTimestamp = "2030-01-01T00:00:00Z"
        #expect(
            code {
                try verifier.verify(activationData: tav.encoded(), pan: Fixtures.pan, expiry: Fixtures.expiry, at: Fixtures.today)
            } == .tavBadSignature)
        // Signed by someone else who claims our key id.
        let forger = TAVSigner(privateKey: P256.Signing.PrivateKey())
        var forged = try TokenAuthenticationValue(
            activationData: forger.sign(pan: Fixtures.pan, expiry: Fixtures.expiry, validUntil: validUntil))
        #expect(
            code {
                try verifier.verify(
                    activationData: forged.encoded(), pan: Fixtures.pan, expiry: Fixtures.expiry, at: Fixtures.today)
            } == .tavKeyMismatch)
        forged.keyId = signer.keyId
        #expect(
            code {
                try verifier.verify(
                    activationData: forged.encoded(), pan: Fixtures.pan, expiry: Fixtures.expiry, at: Fixtures.today)
            } == .tavBadSignature)
    }

    @Test func refusesMalformedAndUnsupported() throws {
        #expect(
            code { try verifier.verify(activationData: "%%%", pan: Fixtures.pan, expiry: Fixtures.expiry, at: Fixtures.today) }
                == .tavMalformed)
        #expect(
            code {
                try verifier.verify(
                    activationData: Data("{}".utf8).base64EncodedString(), pan: Fixtures.pan, expiry: Fixtures.expiry,
                    at: Fixtures.today)
            } == .tavMalformed)
        var tav = try TokenAuthenticationValue(activationData: sign())
        tav.signatureAlgorithm = "NONE"
        #expect(
            code {
                try verifier.verify(activationData: tav.encoded(), pan: Fixtures.pan, expiry: Fixtures.expiry, at: Fixtures.today)
            } == .tavUnsupported)
        tav = try TokenAuthenticationValue(activationData: sign())
        tav.signature = "AAAA"
        #expect(
            code {
                try verifier.verify(activationData: tav.encoded(), pan: Fixtures.pan, expiry: Fixtures.expiry, at: Fixtures.today)
            } == .tavMalformed)
    }
}
