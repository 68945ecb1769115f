import Foundation
import ProvisioClient
import ProvisioKit
import Testing

/// The "this card on your devices" screen's model: which tokens it shows, in what order, and the
/// changes each state allows.
@Suite struct CardDevicesModelTests {
    static func token(
        _ id: String, card: String = "card_1", _ wallet: WalletToken.Wallet = .applePay, _ device: WalletToken.DeviceType?,
        _ state: WalletToken.State, at seconds: TimeInterval = 0
    ) -> WalletToken {
        WalletToken(
            id: id, cardID: card, cardLast4: card == "card_1" ? "1111" : "4444", tokenLast4: "9\(id.suffix(3))",
            wallet: wallet, deviceType: device, state: state, createdAt: Date(timeIntervalSince1970: seconds),
            updatedAt: Date(timeIntervalSince1970: seconds))
    }

    @Test func tokensAreGroupedByWalletPhonesFirstAndOnlyThisCardsLiveOnes() {
        let tokens = [
            Self.token("tok_w1", .applePay, .watch, .active, at: 1),
            Self.token("tok_g1", .googlePay, .phone, .suspended, at: 2),
            Self.token("tok_p2", .applePay, .phone, .pendingVerification, at: 5),
            Self.token("tok_p1", .applePay, .phone, .active, at: 3),
            Self.token("tok_n1", .applePay, nil, .active, at: 0),
            Self.token("tok_x1", card: "card_2", .applePay, .phone, .active),
            Self.token("tok_d1", .samsungPay, .phone, .deleted),
        ]
        let model = CardDevicesModel(cardID: "card_1", tokens: tokens)
        #expect(model.cardLast4 == "1111")
        #expect(model.groups.map(\.wallet) == [.applePay, .googlePay], "no Samsung group: its only token is deleted")
        #expect(model.groups[0].rows.map(\.id) == ["tok_p1", "tok_p2", "tok_w1", "tok_n1"])
        #expect(model.rows.map(\.deviceName) == ["iPhone", "iPhone", "Apple Watch", "device", "Android phone"])
        #expect(model.rows.last?.walletName == "Google Pay")
        #expect(!model.rows.contains { $0.id == "tok_x1" }, "another card's token is not on this card's screen")
        #expect(CardDevicesModel(cardID: "card_3", tokens: tokens).isEmpty)
        #expect(CardDevicesModel(cardID: "card_3", tokens: tokens).cardLast4 == nil)
    }

    @Test func eachStateOffersOnlyTheChangesTheServerAllows() throws {
        let model = CardDevicesModel(
            cardID: "card_1",
            tokens: [
                Self.token("tok_a", .applePay, .phone, .active), Self.token("tok_s", .applePay, .watch, .suspended),
                Self.token("tok_p", .applePay, .tablet, .pendingVerification),
            ])
        let active = try #require(model.row(id: "tok_a"))
        #expect(active.actions == [.suspend, .delete] && !active.canActivateInApp)
        let suspended = try #require(model.row(id: "tok_s"))
        #expect(suspended.actions == [.resume, .delete] && !suspended.canActivateInApp)
        let pending = try #require(model.row(id: "tok_p"))
        #expect(pending.actions == [.delete] && pending.canActivateInApp)
        #expect(pending.deviceName == "iPad")
    }

    @Test func theServersAnswerUpdatesTheScreenAndADeletedTokenLeavesIt() throws {
        var model = CardDevicesModel(
            cardID: "card_1",
            tokens: [Self.token("tok_a", .applePay, .phone, .active), Self.token("tok_w", .applePay, .watch, .active, at: 1)])
        model = model.applying(Self.token("tok_a", .applePay, .phone, .suspended))
        #expect(try #require(model.row(id: "tok_a")).actions == [.resume, .delete])
        model = model.applying(Self.token("tok_w", .applePay, .watch, .deleted, at: 1))
        #expect(model.rows.map(\.id) == ["tok_a"])
        // A token of another card is not this screen's.
        #expect(model.applying(Self.token("tok_z", card: "card_2", .applePay, .phone, .active)) == model)
    }

    @Test func theConfirmationNamesTheLast4AndTheDevice() {
        let watch = AppActivationConfirmation(token: Self.token("tok_w", .applePay, .watch, .pendingVerification))
        #expect(watch.prompt == "Activate the card ending 1111 on this Apple Watch?")
        #expect(watch.tokenID == "tok_w" && watch.cardLast4 == "1111")
        let phone = AppActivationConfirmation(token: Self.token("tok_p", .googlePay, .phone, .pendingVerification))
        #expect(phone.prompt == "Activate the card ending 1111 on this Android phone?")
    }
}
