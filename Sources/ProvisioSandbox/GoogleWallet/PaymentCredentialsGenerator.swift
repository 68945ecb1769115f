/// The issuer app's side of Unified Push Provisioning: TapAndPay's `PaymentCredentialsGenerator`,
/// which the app attaches to its `PushTokenizeRequest` and Google calls once it has a server
/// session ([POM], [GMS-DEC]; docs/android-wallets.md §1). Google's returns a `Future`; here it is
/// an async call. What Google does when it fails, and how long Google waits, is not public: the
/// sandbox gives up the session and passes the error on, and the session's lifetime bounds the
/// wait (`completePushTokenize` refuses an expired session).
public protocol PaymentCredentialsGenerator: Sendable {
    /// Asks the issuer's backend for the TSP OPC and, when `request` asks for one, the Google OPC.
    func generate(_ request: GeneratePaymentCredentialsRequest) async throws -> GeneratedPaymentCredentials
}
