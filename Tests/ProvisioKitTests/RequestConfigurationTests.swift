#if os(Linux)
    import PassKitStandIn
    import ProvisioClient
    import ProvisioCore
    import ProvisioKit
    import Testing

    @Suite struct RequestConfigurationTests {
        @Test func theConfigurationCarriesTheCardAndTheNetworkOnlyWhenKnown() throws {
            let card = MobileCard(
                id: "card_1", last4: "4242", network: .mastercard, cardholderName: "Jane Appleseed", productTitle: "Kit Gold",
                primaryAccountIdentifier: "pai_1")
            let configuration = try #require(InAppProvisioning.requestConfiguration(for: WalletCard(card)))
            #expect(configuration.encryptionScheme == .ECC_V2)
            #expect(configuration.cardholderName == "Jane Appleseed")
            #expect(configuration.primaryAccountSuffix == "4242")
            #expect(configuration.localizedDescription == "Kit Gold")
            #expect(configuration.primaryAccountIdentifier == "pai_1")
            #expect(configuration.paymentNetwork == .masterCard)

            var unknown = card
            unknown.network = .unknown
            unknown.productTitle = nil
            let withoutNetwork = try #require(InAppProvisioning.requestConfiguration(for: WalletCard(unknown)))
            #expect(withoutNetwork.paymentNetwork == nil)
            #expect(withoutNetwork.localizedDescription == "Card ending in 4242")
        }
    }
#endif
