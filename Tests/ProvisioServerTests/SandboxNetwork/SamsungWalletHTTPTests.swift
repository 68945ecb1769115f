import Foundation
import HTTPTypes
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxSamsungWalletAPI
import ProvisioSandboxServer
import Testing

@testable import ProvisioServer

/// The sandbox's Samsung Wallet over HTTP only (`sandbox-samsung-wallet-openapi.yaml`, through
/// `SandboxClient`): Provisio's Samsung Pay data added on the phone and the watch, the yellow path
/// by a one-time code and app to app, the issuer's and the cardholder's changes each reaching
/// the other side, and every SDK failure as its code. Every answer is held to the document and
/// kept; none carries a card number.
@Suite struct SamsungWalletHTTPTests {
    typealias Samsung = SandboxClient.SamsungWallet
    let partner = SandboxHTTPHarness.samsungPartner
    static let yellow = SandboxHTTPHarness.risk(.requireVerification)

    @Test(arguments: TestEngine.available)
    func provisiosDataAddsAnActiveCardOnThePhoneAndTheWatch(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server) { h in
                let phone = try await h.addToSamsung(on: .phone)
                #expect(phone.cardStatus == .active && phone.deviceType == .phone && phone.cardType == .creditDebit)
                #expect(phone.last4Fpan == "1111" && phone.last4Dpan.count == 4 && phone.tokenizationProvider == .vi)
                #expect(phone.issuerName == "Provisio Test Bank")
                let issued = try await h.issuerToken(of: phone)
                #expect(issued.state == .active && issued.wallet == .samsungPay && issued.deviceType == .phone)

                let watch = try await h.addToSamsung(on: .watch)
                #expect(watch.cardStatus == .active && watch.deviceType == .gear && watch.cardId != phone.cardId)
                #expect(try await h.issuerToken(of: watch).deviceType == .watch)

                // Each device lists its own card; the same account, its own ids.
                #expect(try await h.samsung.getAllCards(on: .phone, partner: partner) == [phone])
                #expect(try await h.samsung.getAllCards(on: .watch, partner: partner) == [watch])
                let phoneInfo = try await h.samsung.getWalletInfo(on: .phone, partner: partner)
                let watchInfo = try await h.samsung.getWalletInfo(on: .watch, partner: partner)
                #expect(phoneInfo.walletUserId == watchInfo.walletUserId && phoneInfo.deviceId != watchInfo.deviceId)

                // Another partner sees none of them.
                let other = Samsung.PartnerInfo(serviceId: "sbx-other-issuer", serviceType: .app2app)
                _ = try await h.samsung.getSamsungPayStatus(on: .phone, partner: other)
                #expect(try await h.samsung.getAllCards(on: .phone, partner: other).isEmpty)

                // The same card again on the phone: ERROR_ALREADY_DONE, and the list is unchanged.
                let again = await sandboxError { try await h.addToSamsung(on: .phone) }
                #expect(again?.code == .sandboxSamsungAlreadyDone && again?.message.contains("ERROR_ALREADY_DONE (-5)") == true)
                #expect(try await h.samsung.getAllCards(on: .phone, partner: partner) == [phone])
                await h.expectNoPANInAnswers()
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func yellowByAOneTimeCode(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server, defaultRisk: Self.yellow) { h in
                let card = try await h.addToSamsung(on: .phone)
                #expect(card.cardStatus == .pendingActivation)
                #expect(try await h.issuerToken(of: card).state == .pendingVerification)
                #expect(try await h.samsung.verificationMethods(cardID: card.cardId) == [.appToApp, .otpSms, .customerService])

                let otp = try await h.samsung.requestOneTimeCode(cardID: card.cardId)
                #expect(otp.code.count == 6 && otp.code.allSatisfy(\.isNumber))
                let wrong = otp.code == "000000" ? "111111" : "000000"
                let refused = await sandboxError { try await h.samsung.submitOneTimeCode(wrong, cardID: card.cardId) }
                #expect(refused?.code == .sandboxOTPInvalid)
                #expect(try await h.samsungState(card) == .pendingActivation)

                let active = try await h.samsung.submitOneTimeCode(otp.code, cardID: card.cardId)
                #expect(active.cardStatus == .active && active.cardId == card.cardId)
                #expect(try await h.samsungState(card) == .active)
                let recorded = try await h.issuerToken(of: card)
                #expect(recorded.state == .active && recorded.networkState == "otp_verified")

                // Active now: nothing to verify, no code.
                #expect(try await h.samsung.verificationMethods(cardID: card.cardId).isEmpty)
                let done = await sandboxError { try await h.samsung.requestOneTimeCode(cardID: card.cardId) }
                #expect(done?.code == .sandboxSamsungNotSupported && done?.message.contains("ERROR_NOT_SUPPORTED (-3)") == true)

                // On the watch: a code, never app to app.
                let watch = try await h.addToSamsung(on: .watch)
                #expect(try await h.samsung.verificationMethods(cardID: watch.cardId) == [.otpSms, .customerService])
                let noApp = await sandboxError { try await h.samsung.openBankingApp(cardID: watch.cardId) }
                #expect(noApp?.code == .sandboxSamsungNotSupported)
                let code = try await h.samsung.requestOneTimeCode(cardID: watch.cardId).code
                #expect(try await h.samsung.submitOneTimeCode(code, cardID: watch.cardId).cardStatus == .active)
                await h.expectNoPANInAnswers()
            }
        }
    }

    /// Visa's form: the app reads the token's reference from the intent, gets activation data
    /// from Provisio and answers `accepted` with it; refusals leave the card pending.
    @Test(arguments: TestEngine.available)
    func yellowAppToApp(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server, defaultRisk: Self.yellow) { h in
                let card = try await h.addToSamsung(on: .phone)
                let issued = try await h.issuerToken(of: card)
                let intent = try await h.samsung.openBankingApp(cardID: card.cardId)
                #expect(intent.cardId == card.cardId && intent.tokenizationProvider == .vi)
                #expect(intent.action == SamsungAppToAppRequest.visaAction)
                let json = try #require(
                    BinaryText.decodeBase64(
                        intent.extraText.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")))
                let visa = try #require(try JSONSerialization.jsonObject(with: json) as? [String: String])
                #expect(visa["tokenReferenceID"] == issued.networkTokenRef && visa["panLast4"] == "1111")
                let info = try await h.samsung.getWalletInfo(on: .phone, partner: partner)
                #expect(visa["deviceID"] == info.deviceId && visa["walletAccountID"] == info.walletUserId)

                for answer in [Samsung.StepUpResponse.declined, .failure, .appNotReady] {
                    let card = try await h.samsung.completeAppToApp(cardID: card.cardId, result: answer)
                    #expect(card.cardStatus == .pendingActivation)
                }
                let forged = await sandboxError {
                    try await h.samsung.completeAppToApp(cardID: card.cardId, result: .accepted, activationCode: "not a tav")
                }
                #expect(forged?.code == .tavMalformed)
                let mixed = await sandboxError {
                    try await h.samsung.completeAppToApp(cardID: card.cardId, result: .declined, activationCode: "x")
                }
                #expect(mixed?.code == .sandboxInvalidRequest)
                #expect(try await h.samsungState(card) == .pendingActivation)

                let tav = try await h.activationData(issuerTokenID: issued.id)
                let active = try await h.samsung.completeAppToApp(cardID: card.cardId, result: .accepted, activationCode: tav)
                #expect(active.cardStatus == .active)
                let recorded = try await h.issuerToken(of: card)
                #expect(recorded.state == .active && recorded.networkState == "activated")
                // Answered once: the wallet no longer waits for the app.
                let late = await sandboxError {
                    try await h.samsung.completeAppToApp(cardID: card.cardId, result: .accepted, activationCode: tav)
                }
                #expect(late?.code == .sandboxSamsungNotSupported)
                await h.expectNoPANInAnswers()
            }
        }
    }

    /// The issuer suspends and resumes through Provisio's API: the app's card list follows. The
    /// cardholder deletes the card in Samsung Wallet: Provisio records it.
    @Test(arguments: TestEngine.available)
    func issuerSuspendReachesTheCardListAndTheCardholdersDeletionReachesProvisio(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server) { h in
                let api = server.api(h.issuerAPIKey)
                // Provisio reaches the sandbox's network through its connector API.
                _ = try await api.setNetworkSettings(
                    body: .json(.init(url: "http://127.0.0.1:\(h.port)", apiKey: h.sandboxKey))
                ).ok
                let card = try await h.addToSamsung(on: .phone)
                let issued = try await h.issuerToken(of: card)
                _ = try await api.transitionToken(
                    path: .init(id: issued.id), body: .json(.init(action: .suspend, reasonCode: "fraud_suspected"))
                ).ok
                #expect(try await h.samsungState(card) == .suspended)
                _ = try await api.transitionToken(path: .init(id: issued.id), body: .json(.init(action: .resume))).ok
                #expect(try await h.samsungState(card) == .active)

                let deleted = try await h.samsung.deleteCard(cardID: card.cardId)
                #expect(deleted.cardStatus == .disposed)
                #expect(try await h.samsungState(card) == .disposed, "still listed, disposed")
                let recorded = try await api.getToken(path: .init(id: issued.id)).ok.body.json
                #expect(recorded.state == .deleted && recorded.networkState == "removed_from_wallet")
                let twice = await sandboxError { try await h.samsung.deleteCard(cardID: card.cardId) }
                #expect(twice?.code == .sandboxSamsungCardNotFound && twice?.message.contains("ERROR_NOT_FOUND (-4)") == true)

                // The issuer deletes a second card: disposed in the wallet too.
                let watch = try await h.addToSamsung(on: .watch)
                _ = try await api.transitionToken(
                    path: .init(id: try await h.issuerToken(of: watch).id), body: .json(.init(action: .delete))
                ).ok
                #expect(try await h.samsungState(watch) == .disposed)
                await h.expectNoPANInAnswers()
            }
        }
    }

    /// `getSamsungPayStatus` gates the rest, per device and partner; the status switch and the
    /// cardholder's fixes (`activateSamsungPay`, `goToUpdatePage`).
    @Test(arguments: TestEngine.available)
    func theStatusGatesTheSDKAndTheCardholderFixesIt(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server) { h in
                let samsung = h.samsung
                let notAsked = await sandboxError { try await samsung.getAllCards(on: .phone, partner: partner) }
                #expect(notAsked?.code == .sandboxSamsungNotReady && notAsked?.message.contains("getSamsungPayStatus") == true)
                let ready = try await samsung.getSamsungPayStatus(on: .phone, partner: partner)
                #expect(ready == .init(status: .spayReady, statusCode: 2))

                // A merchant's service type: not ready, -11.
                let merchant = Samsung.PartnerInfo(serviceId: "sbx-merchant", serviceType: .inappPayment)
                let wrongType = try await samsung.getSamsungPayStatus(on: .phone, partner: merchant)
                #expect(wrongType.status == .spayNotReady && wrongType.errorReason == .errorPartnerServiceType)
                #expect(wrongType.errorReasonCode == -11 && wrongType.statusCode == 1)

                // Setup not finished (-356), until the cardholder finishes it.
                let setting = try await samsung.setSamsungPayStatus(
                    .spayNotReady, reason: .errorSpaySetupNotCompleted, on: .phone)
                #expect(setting.errorReasonCode == -356)
                let stale = await sandboxError { try await samsung.getWalletInfo(on: .phone, partner: partner) }
                #expect(stale?.code == .sandboxSamsungNotReady)
                #expect(try await samsung.getSamsungPayStatus(on: .phone, partner: partner) == setting)
                let setup = await sandboxError { try await samsung.getAllCards(on: .phone, partner: partner) }
                #expect(setup?.message.contains("SPAY_NOT_READY: ERROR_SPAY_SETUP_NOT_COMPLETED (-356)") == true)
                try await samsung.activateSamsungPay(on: .phone, partner: partner)
                #expect(try await samsung.getSamsungPayStatus(on: .phone, partner: partner).status == .spayReady)
                #expect(try await samsung.getAllCards(on: .phone, partner: partner).isEmpty)

                // An update needed (-357), until goToUpdatePage; the watch has no such call.
                try await samsung.setSamsungPayStatus(.spayNotReady, reason: .errorSpayAppNeedToUpdate, on: .phone)
                try await samsung.goToUpdatePage(on: .phone, partner: partner)
                #expect(try await samsung.getSamsungPayStatus(on: .phone, partner: partner).status == .spayReady)
                let watchUpdate = await sandboxError { try await samsung.goToUpdatePage(on: .watch, partner: partner) }
                #expect(watchUpdate?.code == .sandboxSamsungNotSupported)

                // Not supported on the watch; the phone is not affected.
                try await samsung.setSamsungPayStatus(.spayNotSupported, reason: .errorDeviceNotSamsung, on: .watch)
                let watch = try await samsung.getSamsungPayStatus(on: .watch, partner: partner)
                #expect(watch.status == .spayNotSupported && watch.errorReasonCode == -350)
                let unsupported = await sandboxError { try await samsung.getAllCards(on: .watch, partner: partner) }
                #expect(unsupported?.code == .sandboxSamsungNotReady && unsupported?.message.contains("(-350)") == true)
                try await samsung.setSamsungPayStatus(.spayReady, on: .watch)
                #expect(try await h.addToSamsung(on: .watch).cardStatus == .active)

                // SPAY_READY with a reason is not a status.
                let readyWithReason = await sandboxError {
                    try await samsung.setSamsungPayStatus(.spayReady, reason: .errorSpayInternal, on: .phone)
                }
                #expect(readyWithReason?.code == .sandboxInvalidRequest)
                await h.expectNoPANInAnswers()
            }
        }
    }

    /// Each refusal of `addCard`, with its Samsung constant and number in the message.
    @Test(arguments: TestEngine.available)
    func addCardRefusals(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server) { h in
                let samsung = h.samsung
                let push = try await h.samsungPayAnswer()
                _ = try await samsung.getSamsungPayStatus(on: .phone, partner: partner)
                func add(
                    partner: Samsung.PartnerInfo = SandboxHTTPHarness.samsungPartner,
                    provider: Samsung.TokenizationProvider? = nil, payload: String? = nil
                ) async -> ProvisioError? {
                    await sandboxError {
                        try await samsung.addCard(
                            on: .phone, partner: partner, cardType: push.cardType,
                            tokenizationProvider: provider ?? push.provider, provisionPayload: payload ?? push.provisionPayload)
                    }
                }
                func expect(_ error: ProvisioError?, _ code: ProvisioError.Code, _ constant: String) {
                    #expect(error?.code == code && error?.message.contains(constant) == true, "\(String(describing: error))")
                }

                // PartnerInfo: a service id of 1 to 128 characters.
                expect(
                    await add(partner: .init(serviceId: "", serviceType: .app2app)), .sandboxSamsungPartnerInfoInvalid,
                    "ERROR_PARTNER_INFO_INVALID (-99)")
                let longestID = String(repeating: "s", count: SamsungPartnerInfo.serviceIDLimit)
                expect(
                    await add(partner: .init(serviceId: longestID + "s", serviceType: .app2app)),
                    .sandboxSamsungPartnerInfoInvalid, "(-99)")
                expect(
                    await add(partner: .init(serviceId: longestID, serviceType: .app2app)), .sandboxSamsungNotReady,
                    "getSamsungPayStatus")

                // AddCardInfo: a payload of at most 64 KiB, which is also the wire's limit on a
                // string (the SDK's -2 for a longer one is the sandbox's own, not reachable here).
                expect(await add(payload: ""), .sandboxSamsungInvalidInput, "ERROR_INVALID_INPUT (-2)")
                let longest = String(repeating: "A", count: SamsungAddCardInfo.payloadLimit)
                expect(await add(payload: longest), .sandboxSamsungRegistrationFailed, "(-104)")
                expect(await add(payload: longest + "AAAA"), .sandboxInvalidRequest, "too long")
                expect(
                    await add(provider: .mc, payload: "not base64!"), .sandboxSamsungInvalidParameter,
                    "ERROR_INVALID_PARAMETER (-12)")

                // The network refuses: unreadable, another network's provider, one it does not play.
                expect(await add(payload: "bm90IGEgSldF"), .sandboxSamsungRegistrationFailed, "ERROR_REGISTRATION_FAIL (-104)")
                expect(await add(provider: .mc), .sandboxSamsungRegistrationFailed, "(-104)")
                expect(await add(provider: .pl), .sandboxSamsungRegistrationFailed, "(-104)")

                // The cardholder cancels while the switch is on.
                try await samsung.setCardholderCancels(true)
                expect(await add(), .sandboxSamsungUserCanceled, "ERROR_USER_CANCELED (-7)")
                try await samsung.setCardholderCancels(false)

                // The issuer declines a Mastercard: -104, nothing listed.
                try await h.client.setRisk(SandboxHTTPHarness.wireRisk(.decline, last4: "4444"))
                let declined = try await h.samsungPayAnswer(cardID: try await h.makeCard(pan: SandboxHTTPHarness.mastercardPAN))
                let red = await sandboxError {
                    try await samsung.addCard(
                        on: .phone, partner: partner, cardType: declined.cardType,
                        tokenizationProvider: declined.provider, provisionPayload: declined.provisionPayload)
                }
                #expect(red?.code == .sandboxSamsungRegistrationFailed && red?.message.contains("declined") == true)
                #expect(try await samsung.getAllCards(on: .phone, partner: partner).isEmpty)

                // Then the add that works.
                let card = try await samsung.addCard(
                    on: .phone, partner: partner, cardType: push.cardType, tokenizationProvider: push.provider,
                    provisionPayload: push.provisionPayload)
                #expect(card.cardStatus == .active)
                let unknown = await sandboxError { try await samsung.verificationMethods(cardID: "sbx_spay_card_none") }
                #expect(unknown?.code == .sandboxSamsungCardNotFound)
                await h.expectNoPANInAnswers()
            }
        }
    }

    /// The wire's strictness: a device that is neither phone nor watch, a word outside a
    /// vocabulary, a field the operation does not declare.
    @Test(arguments: TestEngine.available)
    func requestsOffTheDocumentAreRefused(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxHTTPHarness.run(server) { h in
                let partner: OpenAPIJSON = ["service_id": "sbx-issuer-service", "service_type": "APP2APP"]
                let base = "/sandbox/v1/samsung-wallet"
                let tablet = try await h.raw(
                    .post, "\(base)/devices/tablet/get-samsung-pay-status", json: ["partner_info": partner])
                #expect(tablet.status == 400 && tablet.sandboxErrorBody?.code == "sandbox_invalid_request")
                #expect(tablet.sandboxErrorBody?.message == "The device must be one of phone, watch.")

                let merchant: OpenAPIJSON = ["service_id": "s", "service_type": "MERCHANT"]
                let word = try await h.raw(
                    .post, "\(base)/devices/phone/get-samsung-pay-status", json: ["partner_info": merchant])
                #expect(word.status == 400 && word.sandboxErrorBody?.message.contains("APP2APP, INAPP_PAYMENT") == true)

                let extra: OpenAPIJSON = ["partner_info": partner, "pan": .string(SandboxHTTPHarness.pan)]
                let undeclared = try await h.raw(.post, "\(base)/devices/phone/get-wallet-info", json: extra)
                #expect(undeclared.status == 400 && !undeclared.text.contains(SandboxHTTPHarness.pan))

                let missing = try await h.raw(.post, "\(base)/devices/phone/get-all-cards", json: [:])
                #expect(missing.status == 400 && missing.sandboxErrorBody?.message.contains("partner_info") == true)

                let result = try await h.raw(
                    .post, "\(base)/cards/sbx_spay_card_none/app-to-app/result", json: ["result": "approved"])
                #expect(result.status == 400 && result.sandboxErrorBody?.message.contains("appNotReady") == true)
                let none = try await h.raw(
                    .post, "\(base)/cards/sbx_spay_card_none/app-to-app/result", json: ["result": "declined"])
                #expect(none.status == 404 && none.sandboxErrorBody?.code == "sandbox_samsung_card_not_found")
            }
        }
    }

    @Test func theDocumentsEnumsMapWordForWord() {
        typealias Wire = ProvisioSandboxSamsungWalletAPI.Components.Schemas
        WireEnumWordsTests.sameWords(SamsungServiceType.allCases, Wire.ServiceType.init, back: SamsungServiceType.init)
        WireEnumWordsTests.sameWords(SamsungCardType.allCases, Wire.CardType.init, back: SamsungCardType.init)
        WireEnumWordsTests.sameWords(
            SamsungTokenizationProvider.allCases, Wire.TokenizationProvider.init, back: SamsungTokenizationProvider.init)
        WireEnumWordsTests.sameWords(SamsungCardState.allCases, Wire.CardState.init)
        WireEnumWordsTests.sameWords(SamsungDeviceType.allCases, Wire.DeviceType.init)
        WireEnumWordsTests.sameWords(SamsungVerificationMethod.allCases, Wire.VerificationMethod.init)
        // Statuses and errors are numbers in the SDK: the document names their constants.
        for status in SamsungPayStatus.allCases {
            #expect(Wire.PayStatus(status).rawValue == status.constantName && SamsungPayStatus(Wire.PayStatus(status)) == status)
        }
        #expect(Set(SamsungPayStatus.allCases.map(Wire.PayStatus.init)) == Set(Wire.PayStatus.allCases))
        for code in SamsungErrorCode.allCases {
            #expect(Wire.ErrorReason(code).rawValue == code.constantName && SamsungErrorCode(Wire.ErrorReason(code)) == code)
        }
        #expect(Set(SamsungErrorCode.allCases.map(Wire.ErrorReason.init)) == Set(Wire.ErrorReason.allCases))
    }
}
