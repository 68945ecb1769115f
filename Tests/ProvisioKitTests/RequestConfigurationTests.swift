#if os(Linux)
    import PassKitStandIn
    import ProvisioCore
    import ProvisioKit
    import Testing

    @Suite struct RequestConfigurationTests {
        @Test func theConfigurationCarriesTheCardAndTheNetworkOnlyWhenKnown() throws {
            let card = WalletCard(
                id: "card_1", primaryAccountIdentifier: "pai_1", title: "Kit Gold", last4: "4242",
                cardholderName: "Jane Appleseed", network: .mastercard)
            let configuration = try #require(InAppProvisioning.requestConfiguration(for: card))
            #expect(configuration.encryptionScheme == .ECC_V2)
            #expect(configuration.cardholderName == "Jane Appleseed")
            #expect(configuration.primaryAccountSuffix == "4242")
            #expect(configuration.localizedDescription == "Kit Gold")
            #expect(configuration.primaryAccountIdentifier == "pai_1")
            #expect(configuration.paymentNetwork == .masterCard)

            var unknown = card
            unknown.network = .unknown
            let withoutNetwork = try #require(InAppProvisioning.requestConfiguration(for: unknown))
            #expect(withoutNetwork.paymentNetwork == nil)
            #expect(withoutNetwork.localizedDescription == "Kit Gold")
        }
    }
#endif
