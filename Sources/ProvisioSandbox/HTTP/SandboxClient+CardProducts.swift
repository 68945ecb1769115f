import ProvisioSandboxAPI

// A card product on the cardholder's side: which passes an app sees, the link Wallet opens in
// the issuer's app, and the terms an add waits on.
extension SandboxClient {
    public typealias CardProfile = Components.Schemas.CardProfile

    /// The passes the app with this application identifier (`TEAMID.bundle.id`) sees in its
    /// pass library: a card product's passes only in its associated apps, a pass without a
    /// product in every app.
    public func passes(visibleToApplication applicationIdentifier: String, on kind: DeviceKind? = nil) async throws
        -> [Pass]
    {
        try await call("the passes an app sees") {
            try await $0.listPasses(query: .init(device: kind, appIdentifier: applicationIdentifier)).ok.body.json.passes
        }
    }

    /// The link Wallet opens in the issuer's app for a pass: the product's `app_launch_url` with
    /// `passTypeIdentifier`, `serialNumber` (and `action=verify` while the pass requires
    /// activation). `sandbox_app_launch_unavailable` when the card has no product or no URL.
    public func appLaunchURL(serialNumber: String) async throws -> String {
        try await call("the pass's app link") {
            try await $0.getAppLaunch(path: .init(serial: serialNumber)).ok.body.json.url
        }
    }

    /// The cardholder accepts the card product's terms an add waits on (its submission threw
    /// `sandbox_terms_not_accepted`; `outcome(sessionID:)` says the version): Wallet makes the
    /// pass. Another version throws `sandbox_terms_version_mismatch`.
    @discardableResult
    public func acceptTerms(sessionID: String, version: String) async throws -> Outcome {
        try await call("the terms acceptance") {
            try await $0.acceptTerms(path: .init(id: sessionID), body: .json(.init(version: version))).ok.body.json
        }
    }
}
