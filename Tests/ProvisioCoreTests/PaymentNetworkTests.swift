import Testing

@testable import ProvisioCore

@Suite struct PaymentNetworkTests {
    @Test(arguments: [
        ("411111", PaymentNetwork.visa), ("555555", .mastercard), ("222100", .mastercard), ("272099", .mastercard),
        ("378282", .amex), ("341111", .amex), ("601111", .discover), ("650000", .discover), ("353011", .jcb),
        ("621234", .unionPay), ("500000", .maestro), ("999999", .unknown), ("", .unknown),
    ])
    func derivesNetworkFromBIN(_ bin: String, _ network: PaymentNetwork) {
        #expect(PaymentNetwork(bin: bin) == network)
    }

    @Test func parsesEncryptionSchemes() throws {
        #expect(try EncryptionScheme(wireName: "ECC_V2") == .eccV2)
        #expect(try EncryptionScheme(wireName: "rsa_v2") == .rsaV2)
        let error = #expect(throws: ProvisioError.self) { try EncryptionScheme(wireName: "RSA_V1") }
        #expect(error?.code == .unsupportedEncryptionScheme)
    }
}
