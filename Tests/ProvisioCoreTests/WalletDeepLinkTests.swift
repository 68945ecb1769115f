import Foundation
import Testing

@testable import ProvisioCore

@Suite struct WalletDeepLinkTests {
    @Test func parsesWalletsVerificationLink() throws {
        let link = try WalletDeepLink(
            url: URL(
                string: "acmebank://wallet/verify?passTypeIdentifier=paymentpass.com.apple&serialNumber=SN-42&action=verify")!)
        #expect(link.serialNumber == "SN-42" && link.action == .verify && link.passTypeIdentifier == "paymentpass.com.apple")
    }

    @Test(arguments: [
        "acmebank://wallet?serialNumber=SN&action=verify",
        "acmebank://wallet?passTypeIdentifier=pass.com.other&serialNumber=SN&action=verify",
        "acmebank://wallet?passTypeIdentifier=paymentpass.com.apple&action=verify",
        "acmebank://wallet?passTypeIdentifier=paymentpass.com.apple&serialNumber=SN&action=delete",
        "acmebank://wallet?passTypeIdentifier=paymentpass.com.apple&serialNumber=SN&serialNumber=SN2&action=verify",
    ])
    func refusesAnythingElse(_ text: String) {
        let error = #expect(throws: ProvisioError.self) { try WalletDeepLink(url: URL(string: text)!) }
        #expect(error?.code == .invalidDeepLink)
    }
}
