import ProvisioJSON

/// Every parser of outside input, as fuzz targets.
public enum FuzzTargets {
    /// In the order they run.
    public static func all() -> [any FuzzTarget] {
        [
            StrictJSONTarget(), ApplePayloadRequestTarget(), CertificateChainTarget(), WalletDeepLinkTarget(),
            ExtensionConfigurationTarget(), WebhookVerifierTarget(),
        ]
    }

    public static var names: [String] { all().map(\.name) }

    public static func named(_ name: String) -> (any FuzzTarget)? {
        all().first { $0.name == name }
    }
}
