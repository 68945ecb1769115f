import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import Testing

/// Samsung Wallet's push provisioning end to end: Provisio builds the Samsung Pay data, the
/// issuer's app hands it to `addCard` on the phone or, through `WatchManager`, the Galaxy Watch;
/// the sandbox network opens the payload, asks Provisio to decide and installs the card.
@Suite struct SamsungWalletPushTests {
    /// `getSamsungPayStatus` first, per device and per partner; nothing else until it says ready.
    @Test(arguments: TestEngine.available)
    func statusGatesWalletInfoCardsAndAdds(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let samsung = SandboxSamsungWallet(tokenService: h.network)
                let partner = SandboxNetworkHarness.samsungPartner
                let info = try h.addCardInfo(try await h.samsungPushData())
                func refusals() async -> [ProvisioError.Code?] {
                    [
                        await networkError { try await samsung.getWalletInfo(partner) }?.code,
                        await networkError { try await samsung.getAllCards(partner) }?.code,
                        await networkError { try await samsung.addCard(info, partner) }?.code,
                    ]
                }
                let notReady = [ProvisioError.Code?](repeating: .sandboxSamsungNotReady, count: 3)

                // Not asked yet.
                #expect(await refusals() == notReady)
                let first = await networkError { try await samsung.getAllCards(partner) }
                #expect(first?.message.contains("getSamsungPayStatus") == true)

                // A merchant's service type is not for push provisioning.
                let merchant = try SamsungPartnerInfo(serviceID: "sbx-merchant", serviceType: .inAppPayment)
                #expect(await samsung.getSamsungPayStatus(merchant) == .init(status: .notReady, errorReason: .partnerServiceType))
                let wrongType = await networkError { try await samsung.getAllCards(merchant) }
                #expect(wrongType?.code == .sandboxSamsungNotReady && wrongType?.message.contains("(-11)") == true)

                // Ready: wallet info and an empty list.
                #expect(await samsung.getSamsungPayStatus(partner) == .ready)
                #expect(try await samsung.getAllCards(partner).isEmpty)
                let phoneInfo = try await samsung.getWalletInfo(partner)
                #expect(phoneInfo.deviceID == samsung.phone.identifier && phoneInfo.walletUserID == samsung.walletUserID)
                #expect(Set(phoneInfo.bundle.keys) == ["deviceId", "walletUserId", "walletDMId"])

                // Setup not finished (-356) until activateSamsungPay; the partner asks again.
                try await samsung.setSamsungPayStatus(
                    .init(status: .notReady, errorReason: .spaySetupNotCompleted), on: samsung.phone)
                #expect(await refusals() == notReady)
                #expect(await samsung.getSamsungPayStatus(partner).errorReason == .spaySetupNotCompleted)
                let setup = await networkError { try await samsung.getAllCards(partner) }
                #expect(setup?.message.contains("SPAY_NOT_READY: ERROR_SPAY_SETUP_NOT_COMPLETED (-356)") == true)
                await samsung.activateSamsungPay()
                #expect(await refusals() == notReady, "ready again, but not asked since")
                #expect(await samsung.getSamsungPayStatus(partner) == .ready)
                #expect(try await samsung.getAllCards(partner).isEmpty)

                // An update is needed (-357) until goToUpdatePage.
                try await samsung.setSamsungPayStatus(
                    .init(status: .notReady, errorReason: .spayAppNeedToUpdate), on: samsung.phone)
                #expect(await samsung.getSamsungPayStatus(partner).errorReason == .spayAppNeedToUpdate)
                await samsung.activateSamsungPay()
                #expect(await samsung.getSamsungPayStatus(partner).errorReason == .spayAppNeedToUpdate, "not this reason")
                await samsung.goToUpdatePage()
                #expect(await samsung.getSamsungPayStatus(partner) == .ready)

                // Not supported at all.
                try await samsung.setSamsungPayStatus(
                    .init(status: .notSupported, errorReason: .deviceNotSamsung), on: samsung.phone)
                #expect(await samsung.getSamsungPayStatus(partner).status == .notSupported)
                #expect(await refusals() == notReady)

                // The watch has its own status and ids; the same account.
                let watch = samsung.watchManager(partner)
                let notAsked = await networkError { try await watch.getWalletInfo() }
                #expect(notAsked?.code == .sandboxSamsungNotReady)
                try await samsung.setSamsungPayStatus(
                    .init(status: .notReady, errorReason: .spaySetupNotCompleted), on: samsung.watch)
                #expect(await watch.getSamsungPayStatus().errorReason == .spaySetupNotCompleted)
                await watch.activateSamsungPay()
                #expect(await watch.getSamsungPayStatus() == .ready)
                let watchInfo = try await watch.getWalletInfo()
                #expect(watchInfo.deviceID == samsung.watch.identifier && watchInfo.walletUserID == phoneInfo.walletUserID)
                #expect(watchInfo.walletDMID != phoneInfo.walletDMID && watchInfo.deviceID != phoneInfo.deviceID)
                #expect(try await watch.getAllCards().isEmpty)

                // A PartnerInfo needs a service id of 1 to 128 characters.
                for serviceID in ["", String(repeating: "s", count: SamsungPartnerInfo.serviceIDLimit + 1)] {
                    #expect(throws: ProvisioError.self) { try SamsungPartnerInfo(serviceID: serviceID) }
                    let refused = (try? SamsungPartnerInfo(serviceID: serviceID)) == nil
                    #expect(refused)
                }
                let longest = try SamsungPartnerInfo(serviceID: String(repeating: "s", count: SamsungPartnerInfo.serviceIDLimit))
                #expect(longest.serviceID.count == SamsungPartnerInfo.serviceIDLimit)
                do {
                    _ = try SamsungPartnerInfo(serviceID: "")
                } catch let error as ProvisioError {
                    #expect(error.code == .sandboxSamsungPartnerInfoInvalid && error.message.contains("(-99)"))
                }
                #expect(await h.network.allTokens().isEmpty, "nothing reached the network")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func greenAddsAnActiveCardToThePhoneAndTheWatch(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let samsung = SandboxSamsungWallet(tokenService: h.network)
                let push = try await h.samsungPushData()
                #expect(push.provider == .visa && push.lastDigits == "1111")
                let card = try await h.addToSamsung(samsung)

                #expect(card.cardStatus == .active && card.deviceType == .phone)
                let (networkToken, issued) = try await h.tokens(of: card)
                #expect(card.last4FPAN == "1111" && card.last4DPAN == networkToken.tokenPrimaryAccountNumber.last4)
                #expect(card.cardType == push.cardType && card.issuerName == "Provisio Test Bank")
                #expect(
                    card.cardInfo == [
                        "last4Fpan": "1111", "last4Dpan": card.last4DPAN, "cardType": push.cardType.rawValue,
                        "issuerName": "Provisio Test Bank", "deviceType": "phone",
                    ])
                #expect(try await samsung.getAllCards(SandboxNetworkHarness.samsungPartner) == [card])
                let watchManager = samsung.watchManager(SandboxNetworkHarness.samsungPartner)
                #expect(await watchManager.getSamsungPayStatus() == .ready)
                #expect(try await watchManager.getAllCards().isEmpty)

                // The network's token is in Samsung Wallet on the Android phone; Provisio decided
                // for Samsung Pay on a phone.
                #expect(networkToken.wallet == .samsungPay && networkToken.device == samsung.phone)
                #expect(networkToken.state == .active && networkToken.device.kind == .androidPhone)
                #expect(issued.wallet == .samsungPay && issued.deviceType == .phone && issued.state == .active)
                #expect(issued.networkTokenRef == networkToken.networkTokenRef)
                #expect(await h.wallet.passes().isEmpty, "nothing went to Apple Wallet")

                // Another issuer's service id sees none of it.
                let other = try SamsungPartnerInfo(serviceID: "sbx-other-issuer")
                #expect(await samsung.getSamsungPayStatus(other) == .ready)
                #expect(try await samsung.getAllCards(other).isEmpty)

                // To the watch, through WatchManager: a card of its own, `gear`, a watch at Provisio.
                let onWatch = try await h.addToWatch(samsung)
                #expect(onWatch.cardStatus == .active && onWatch.deviceType == .gear && onWatch.cardInfo["deviceType"] == "gear")
                #expect(onWatch.cardID != card.cardID && onWatch.last4FPAN == "1111")
                let (watchToken, watchIssued) = try await h.tokens(of: onWatch)
                #expect(watchToken.device == samsung.watch && watchToken.device.kind == .galaxyWatch)
                #expect(watchIssued.wallet == .samsungPay && watchIssued.deviceType == .watch && watchIssued.state == .active)
                #expect(try await samsung.watchManager(SandboxNetworkHarness.samsungPartner).getAllCards() == [onWatch])
                #expect(try await samsung.getAllCards(SandboxNetworkHarness.samsungPartner) == [card])

                // The card is on the phone already: ERROR_ALREADY_DONE, and the network's new token
                // does not live on at Provisio.
                let again = await networkError { try await h.addToSamsung(samsung) }
                #expect(again?.code == .sandboxSamsungAlreadyDone && again?.message.contains("ERROR_ALREADY_DONE (-5)") == true)
                let known = [networkToken.networkTokenRef, watchToken.networkTokenRef]
                let others = await h.network.allTokens().filter { !known.contains($0.networkTokenRef) }
                #expect(others.count == 1)
                let refusedToken = try #require(others.first)
                #expect(refusedToken.state == .deleted && refusedToken.passSerialNumber == nil)
                let refusedAtProvisio = try await h.issuerToken(try #require(refusedToken.issuerTokenID))
                #expect(refusedAtProvisio.state == .deleted)
                #expect(try await samsung.getAllCards(SandboxNetworkHarness.samsungPartner) == [card])
                try await h.expectNoPANInSamsung(samsung, also: ["\(again?.message ?? "")"])
            }
        }
    }

    /// Each way `addCard` fails, and what reached Provisio (nothing, unless it decided).
    @Test(arguments: TestEngine.available)
    func addCardErrors(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let samsung = SandboxSamsungWallet(tokenService: h.network)
                let partner = SandboxNetworkHarness.samsungPartner
                #expect(await samsung.getSamsungPayStatus(partner) == .ready)
                let push = try await h.samsungPushData()
                var messages: [String] = []

                // Refused by the SDK: no payload, an empty one, one over the limit (-2); a Mastercard
                // payload that is not Base64 (-12). A Visa payload is not checked there.
                func info(_ detail: [String: String], _ provider: SamsungTokenizationProvider = .visa) throws
                    -> SamsungAddCardInfo
                {
                    try SamsungAddCardInfo(cardType: .creditDebit, tokenizationProvider: provider, cardDetail: detail)
                }
                let key = SamsungAddCardInfo.provisionPayloadKey
                let jwe = String(decoding: try #require(Data(base64Encoded: push.provisionPayload)), as: UTF8.self)
                for (detail, provider, code, constant) in [
                    ([:], SamsungTokenizationProvider.visa, ProvisioError.Code.sandboxSamsungInvalidInput, "(-2)"),
                    ([key: ""], .visa, .sandboxSamsungInvalidInput, "(-2)"),
                    (
                        [key: String(repeating: "A", count: SamsungAddCardInfo.payloadLimit + 4)], .visa,
                        .sandboxSamsungInvalidInput, "(-2)"
                    ),
                    ([key: jwe], .mastercard, .sandboxSamsungInvalidParameter, "ERROR_INVALID_PARAMETER (-12)"),
                    ([key: "not base64!"], .mastercard, .sandboxSamsungInvalidParameter, "(-12)"),
                ] {
                    do {
                        _ = try info(detail, provider)
                        Issue.record("\(code) expected")
                    } catch let error as ProvisioError {
                        #expect(error.code == code && error.message.contains(constant), "\(error)")
                    }
                }
                // At the limit, and a Mastercard payload in Base64 without its padding, are taken.
                _ = try info([key: String(repeating: "A", count: SamsungAddCardInfo.payloadLimit)])
                _ = try info([key: "QUJD"], .mastercard)
                _ = try info([key: "QUI"], .mastercard)

                // The cardholder cancels (-7): the network is never asked.
                await samsung.setCardholderCancels(true)
                let cancelled = await networkError { try await samsung.addCard(h.addCardInfo(push), partner) }
                #expect(cancelled?.code == .sandboxSamsungUserCanceled && cancelled?.message.contains("(-7)") == true)
                await samsung.setCardholderCancels(false)

                // Refused by the network before Provisio is asked (-104): a Visa payload that is not
                // Base64, one changed on the way, one sealed to another network's key, the wrong
                // provider for the card's network, and an OPC Provisio built for Google Pay.
                var tampered = push
                tampered.provisionPayload = Data(SandboxOPCKeyTests.tampered(jwe).utf8).base64EncodedString()
                let card =
                    #"{"fpan":"4111111111111111","expiry_month":12,"expiry_year":2030,"cardholder_name":"Jane Doe","#
                    + #""wallet":"samsung_pay","card_id":"\#(h.cardID)","issued_at":"2026-01-01T00:00:00Z"}"#
                var foreign = push
                foreign.provisionPayload = Data(
                    try JWEEncrypter(recipient: SandboxOPCKey().publicKey).encrypt(
                        Data(card.utf8), contentType: "application/json"
                    )
                    .utf8
                ).base64EncodedString()
                var wrongProvider = push
                wrongProvider.provider = .mastercard
                var unplayed = push
                unplayed.provider = .paypal
                let google = try await h.googlePushData()
                var builtForGoogle = push
                builtForGoogle.provisionPayload = Data(google.opaquePaymentCard.utf8).base64EncodedString()
                var notBase64 = push
                notBase64.provisionPayload = jwe
                for (bad, inner) in [
                    (notBase64, "not Base64"), (tampered, "sandbox_opc_unreadable"), (foreign, "sandbox_opc_unreadable"),
                    (wrongProvider, "sandbox_opc_network_mismatch"), (unplayed, "sandbox_opc_network_mismatch"),
                    (builtForGoogle, "sandbox_opc_invalid"),
                ] {
                    let refused = await networkError { try await samsung.addCard(h.addCardInfo(bad), partner) }
                    #expect(refused?.code == .sandboxSamsungRegistrationFailed)
                    #expect(refused?.message.contains("ERROR_REGISTRATION_FAIL (-104)") == true)
                    #expect(refused?.message.contains(inner) == true, "\(refused?.message ?? "") lacks \(inner)")
                    messages.append(refused?.message ?? "")
                }
                #expect(try await samsung.getAllCards(partner).isEmpty)
                #expect(await h.network.allTokens().isEmpty)
                #expect(try await h.issuerTokens().isEmpty, "Provisio was never asked")

                // The issuer declines (-104): Provisio records it, Samsung Wallet holds nothing.
                await h.network.setRisk(.red, forLast4: "1111")
                let declined = await networkError { try await samsung.addCard(h.addCardInfo(push), partner) }
                #expect(declined?.code == .sandboxSamsungRegistrationFailed)
                #expect(
                    declined?.message.contains("declined") == true
                        && declined?.message.contains("wallet_recommends_decline") == true)
                #expect(try await samsung.getAllCards(partner).isEmpty)
                let issued = try await h.issuerTokens()
                #expect(issued.count == 1 && issued.first?.state == .declined && issued.first?.wallet == .samsungPay)
                messages.append(declined?.message ?? "")
                try await h.expectNoPANInSamsung(samsung, also: messages)
            }
        }
    }

    /// The issuer suspends, resumes and deletes through Provisio; the network reaches Samsung
    /// Wallet. A deleted card stays listed, `DISPOSED`; an expired one `EXPIRED`.
    @Test(arguments: TestEngine.available)
    func issuerLifecycleReachesSamsungWallet(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let samsung = SandboxSamsungWallet(tokenService: h.network)
                let card = try await h.addToSamsung(samsung)
                let (_, issued) = try await h.tokens(of: card)
                let api = server.api(h.apiKey)
                func transition(_ action: Components.Schemas.TokenTransitionRequest.ActionPayload) async throws {
                    _ = try await api.transitionToken(path: .init(id: issued.id), body: .json(.init(action: action))).ok
                }
                try await transition(.suspend)
                #expect(try await h.samsungState(card, in: samsung) == .suspended)
                try await transition(.resume)
                #expect(try await h.samsungState(card, in: samsung) == .active)
                try await transition(.delete)
                #expect(try await h.samsungState(card, in: samsung) == .disposed, "a deleted card stays listed")
                #expect(try await h.issuerToken(issued.id).state == .deleted)

                // Disposed: it may be added again, as a new card.
                let again = try await h.addToSamsung(samsung)
                #expect(again.cardStatus == .active && again.cardID != card.cardID)
                #expect(
                    try await samsung.getAllCards(SandboxNetworkHarness.samsungPartner).map(\.cardStatus) == [.disposed, .active])

                // The network expires the watch's token: EXPIRED there, deleted at Provisio.
                let onWatch = try await h.addToWatch(samsung)
                let (watchToken, watchIssued) = try await h.tokens(of: onWatch)
                try await h.network.expireToken(networkTokenRef: watchToken.networkTokenRef)
                #expect(try await h.samsungState(onWatch, in: samsung) == .expired)
                #expect(try await h.issuerToken(watchIssued.id).state == .deleted)
                try await h.expectNoPANInSamsung(samsung)
            }
        }
    }

    /// The cardholder deletes the card in Samsung Wallet: the network deletes the token and
    /// Provisio records it.
    @Test(arguments: TestEngine.available)
    func cardholderDeletionReachesProvisio(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let samsung = SandboxSamsungWallet(tokenService: h.network)
                let card = try await h.addToSamsung(samsung)
                let (networkToken, issued) = try await h.tokens(of: card)

                let deleted = try await samsung.deleteCard(cardID: card.cardID)
                #expect(deleted.cardStatus == .disposed)
                #expect(try await h.samsungState(card, in: samsung) == .disposed)
                #expect(await h.network.token(networkTokenRef: networkToken.networkTokenRef)?.state == .deleted)
                let recorded = try await h.issuerToken(issued.id)
                #expect(recorded.state == .deleted && recorded.networkState == "removed_from_wallet")

                // Gone: a second deletion and an unknown card are ERROR_NOT_FOUND.
                for cardID in [card.cardID, "sbx_spay_card_nope"] {
                    let missing = await networkError { try await samsung.deleteCard(cardID: cardID) }
                    #expect(missing?.code == .sandboxSamsungCardNotFound && missing?.message.contains("(-4)") == true)
                }

                // An expired card's token is gone at the network: deleting it only disposes it here.
                let onWatch = try await h.addToWatch(samsung)
                let (watchToken, watchIssued) = try await h.tokens(of: onWatch)
                try await h.network.expireToken(networkTokenRef: watchToken.networkTokenRef)
                #expect(try await samsung.deleteCard(cardID: onWatch.cardID).cardStatus == .disposed)
                #expect(try await h.issuerToken(watchIssued.id).networkState == "token_expired")
                try await h.expectNoPANInSamsung(samsung)
            }
        }
    }

    /// A device lists at most `cardLimit` cards: a full device refuses before the network is
    /// asked; a disposed card makes room (it goes); the watch counts its own.
    @Test(arguments: TestEngine.available)
    func aFullDeviceRefusesUntilADisposedCardMakesRoom(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let samsung = SandboxSamsungWallet(tokenService: h.network, cardLimit: 2)
                #expect(SandboxSamsungWallet(tokenService: h.network, cardLimit: 0).cardLimit == 1)
                let mastercardID = try await h.makeCard(pan: SandboxNetworkHarness.mastercardPAN)
                let amexID = try await h.makeCard(pan: SandboxNetworkHarness.amexPAN)
                let visa = try await h.addToSamsung(samsung)
                let mastercard = try await h.addToSamsung(samsung, cardID: mastercardID)

                let tokensBefore = await h.network.allTokens().count
                let full = await networkError { try await h.addToSamsung(samsung, cardID: amexID) }
                #expect(full?.code == .sandboxSamsungRegistrationFailed && full?.message.contains("limit of 2") == true)
                #expect(await h.network.allTokens().count == tokensBefore, "the network was not asked")

                // The watch has room of its own.
                #expect(try await h.addToWatch(samsung, cardID: amexID).cardStatus == .active)

                try await samsung.deleteCard(cardID: visa.cardID)
                let amex = try await h.addToSamsung(samsung, cardID: amexID)
                #expect(amex.cardStatus == .active)
                let listed = try await samsung.getAllCards(SandboxNetworkHarness.samsungPartner)
                #expect(listed.map(\.cardID) == [mastercard.cardID, amex.cardID], "the disposed card went")
            }
        }
    }
}
