import ProvisioCore

/// What the sandbox network says of a token's device and wallet when it asks the issuer to send
/// a one-time code: the device as the wallet describes it (never a card number) and the token
/// requestor. The ids are the sandbox's own.
enum SandboxOTPContext {
    static func deviceName(_ kind: SandboxDeviceKind) -> String {
        switch kind {
        case .phone: "iPhone"
        case .watch: "Apple Watch"
        case .androidPhone: "Android phone"
        case .galaxyWatch: "Galaxy Watch"
        }
    }

    static func os(_ kind: SandboxDeviceKind) -> String {
        switch kind {
        case .phone: "iOS"
        case .watch: "watchOS"
        case .androidPhone: "Android"
        case .galaxyWatch: "Wear OS"
        }
    }

    /// The token requestor for the wallet: a sandbox id and the wallet's name.
    static func tokenRequestor(_ wallet: Wallet) -> (id: String, name: String) {
        switch wallet {
        case .applePay: ("sbx-trid-apple-pay", "APPLE_PAY")
        case .googlePay: ("sbx-trid-google-pay", "GOOGLE_PAY")
        case .samsungPay: ("sbx-trid-samsung-pay", "SAMSUNG_PAY")
        }
    }
}
