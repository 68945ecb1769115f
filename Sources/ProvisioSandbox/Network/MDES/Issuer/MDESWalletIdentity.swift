import ProvisioCore

/// How the sandbox's MDES names the wallet a token is for: the token requestor, Mastercard's
/// `walletId` and the device's operating system. Provisio reads the wallet from `walletId`
/// (103 Apple Pay, 216 Google Pay, 217 Samsung Pay; docs/mdes.md).
///
/// Apple Pay's token requestor id is the one docs/mdes.md cites; Google Pay's and Samsung Pay's
/// are the sandbox's own eleven digits (Mastercard's are not on a public page read here).
struct MDESWalletIdentity: Sendable, Hashable {
    let tokenRequestorID: String
    let walletID: String
    /// `deviceInfo.osName`: IOS for Apple's devices; ANDROID for a phone and ANDROID_WEAR for a
    /// watch with Google's or Samsung's wallet.
    let osName: String

    init(wallet: Wallet, formFactor: String) {
        switch wallet {
        case .applePay:
            (tokenRequestorID, walletID, osName) = ("50110030273", "103", "IOS")
        case .googlePay:
            (tokenRequestorID, walletID) = ("50199900216", "216")
            osName = formFactor == "WATCH" ? "ANDROID_WEAR" : "ANDROID"
        case .samsungPay:
            (tokenRequestorID, walletID) = ("50199900217", "217")
            osName = formFactor == "WATCH" ? "ANDROID_WEAR" : "ANDROID"
        }
    }
}
