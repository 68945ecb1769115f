import ProvisioCore
import Testing

@testable import ProvisioServer

/// The contacts' rules and masks, and the planner's offers, without a server.
@Suite struct CardholderContactRulesTests {
    @Test func phonesAreE164AndMaskedToOneShape() throws {
        for good in ["+14155550123", "+33612345678", "+12345678", "+123456789012345"] {
            #expect((try? CardholderPhone(good)) != nil, "\(good)")
        }
        for bad in ["14155550123", "+1234567", "+1234567890123456", "+0123456789", "+1 415 555 0123", "+1415555012a", "", "+"] {
            let error = #expect(throws: ProvisioError.self) { try CardholderPhone(bad) }
            #expect(error?.code == .invalidParameter && error?.message.contains("E.164") == true)
            if !bad.isEmpty, bad != "+" { #expect(error?.message.contains(bad) == false) }
        }
        #expect(try CardholderPhone("+14155550123").masked == "+•• ••• ••• 0123")
        #expect(try CardholderPhone("+123456789012345").masked == "+•• ••• ••• 2345")
        // Fewer than ten digits: only the last two show.
        #expect(try CardholderPhone("+12345678").masked == "+•• ••• ••• ••78")
        #expect(try CardholderPhone("+123456789").masked == "+•• ••• ••• ••89")
    }

    @Test func emailsAreBoundedAndMaskedToTheirFirstLetterAndDomain() throws {
        let longest =
            String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 63) + "."
            + String(
                repeating: "c", count: 63) + "." + String(repeating: "d", count: 58) + ".io"
        #expect(longest.count == 254)
        for good in ["jane@example.com", "j.a+tag@mail.example.co", "x@b.io", longest] {
            #expect((try? CardholderEmail(good)) != nil, "\(good)")
        }
        let tooLong = "a" + longest
        let localTooLong = String(repeating: "a", count: 65) + "@example.com"
        for bad in [
            tooLong, localTooLong, "jane", "jane@", "@example.com", "jane@@example.com", "ja ne@example.com", ".jane@example.com",
            "ja..ne@example.com", "jane@example", "jane@-example.com", "jane@example.c0m", "jané@example.com",
            "jane@ex_ample.com",
        ] {
            let error = #expect(throws: ProvisioError.self) { try CardholderEmail(bad) }
            #expect(error?.code == .invalidParameter && error?.message.contains("254") == true, "\(bad)")
        }
        #expect(try CardholderEmail("jane@example.com").masked == "j•••@example.com")
        #expect(try CardholderEmail("x@b.io").masked == "x•••@b.io")
        let numbered = #expect(throws: ProvisioError.self) { try CardholderEmail("4111111111111111@example.com") }
        #expect(numbered?.code == .cardNumberInText)
    }

    @Test func offersFollowTheDeviceAndTheContacts() {
        let phone = "+•• ••• ••• 0123"
        let email = "j•••@example.com"
        let both = ActivationOfferPlanner.offers(
            device: .phone, maskedPhone: phone, maskedEmail: email, customerServicePhone: "+1 800 555 0100")
        #expect(
            both == [
                ActivationOffer(.appToApp), ActivationOffer(.otpSMS, contact: phone), ActivationOffer(.otpEmail, contact: email),
                ActivationOffer(.customerService, contact: "+1 800 555 0100"),
            ])
        // A Watch cannot open the app; without a support number there is no customer service.
        let watch = ActivationOfferPlanner.offers(device: .watch, maskedPhone: phone, maskedEmail: nil, customerServicePhone: nil)
        #expect(watch == [ActivationOffer(.otpSMS, contact: phone)])
        // Only an email: no SMS.
        let emailOnly = ActivationOfferPlanner.offers(
            device: .phone, maskedPhone: nil, maskedEmail: email, customerServicePhone: nil)
        #expect(emailOnly == [ActivationOffer(.appToApp), ActivationOffer(.otpEmail, contact: email)])
        // No contact (cards from before contacts): SMS kept, without a contact; no email.
        let none = ActivationOfferPlanner.offers(device: .watch, maskedPhone: nil, maskedEmail: nil, customerServicePhone: nil)
        #expect(none == [ActivationOffer(.otpSMS)])
        // A product narrowing the methods, in its order, repeated ones once.
        let narrowed = ActivationOfferPlanner.offers(
            device: .phone, offered: [.otpEmail, .customerService, .otpEmail], maskedPhone: phone, maskedEmail: email,
            customerServicePhone: "+1 800 555 0100")
        #expect(narrowed.map(\.method) == [.otpEmail, .customerService])
        #expect(ActivationOfferPlanner.method(ofChannel: .email) == .otpEmail)
        #expect(ActivationOfferPlanner.method(ofChannel: .sms) == .otpSMS)
    }

    @Test func otpDetailsAreBounded() throws {
        try OTPRequestDetails(
            challengeID: String(repeating: "c", count: 64), device: OTPDeviceInfo(name: String(repeating: "n", count: 64)),
            tokenRequestor: TokenRequestorInfo(id: "40010030273", name: "APPLE_PAY")
        ).validate()
        for details in [
            OTPRequestDetails(challengeID: ""), OTPRequestDetails(challengeID: String(repeating: "c", count: 65)),
            OTPRequestDetails(challengeID: "a b"),
            OTPRequestDetails(challengeID: "c", device: OTPDeviceInfo(os: String(repeating: "o", count: 65))),
            OTPRequestDetails(challengeID: "c", device: OTPDeviceInfo(imei: "")),
            OTPRequestDetails(challengeID: "c", device: OTPDeviceInfo(imei: "35693803564380a")),
            OTPRequestDetails(challengeID: "c", device: OTPDeviceInfo(msisdn: "+1234567890123456")),
            OTPRequestDetails(challengeID: "c", device: OTPDeviceInfo(name: "a\nb")),
            OTPRequestDetails(challengeID: "c", tokenRequestor: TokenRequestorInfo(id: "")),
        ] {
            let error = #expect(throws: ProvisioError.self) { try details.validate() }
            #expect(error?.code == .invalidParameter)
        }
        let card = #expect(throws: ProvisioError.self) {
            try OTPRequestDetails(challengeID: "c", device: OTPDeviceInfo(serialNumber: "4111111111111111")).validate()
        }
        #expect(card?.code == .cardNumberInText)
        // Random ids may hold a digit run passing the Luhn check: refused only when the whole id
        // is a card number.
        try OTPRequestDetails(
            challengeID: "chl_4111111111111111ab", device: OTPDeviceInfo(serialNumber: "F4111111111111111"),
            tokenRequestor: TokenRequestorInfo(id: "trid-4111111111111111")
        ).validate()
        for details in [
            OTPRequestDetails(challengeID: "4111-1111-1111-1111"),
            OTPRequestDetails(challengeID: "c", tokenRequestor: TokenRequestorInfo(id: "4111111111111111")),
            OTPRequestDetails(challengeID: "c", device: OTPDeviceInfo(name: "Jane 4111111111111111")),
        ] {
            let refused = #expect(throws: ProvisioError.self) { try details.validate() }
            #expect(refused?.code == .cardNumberInText)
        }
    }
}
