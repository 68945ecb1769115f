import Crypto
import Foundation
import Logging
import ProvisioCore
import ProvisioCrypto

/// Everything a running server holds: the store and the services built on it. Built once at
/// start by `ServerAssembly`, or directly by tests with their own clock and keys.
public struct ServerServices: Sendable {
    public let handle: any DatabaseHandle
    public let store: any ProvisioStore
    public let access: AccessService
    public let cards: CardService
    public let provisioning: ProvisioningService
    public let metrics: ProvisioMetrics
    public let clock: any TimeSource

    public init(
        handle: any DatabaseHandle, keys: ProvisioKeys, chainValidator: any AppleChainValidating,
        networkKey: P256.KeyAgreement.PublicKey, networkKeyID: String, clock: any TimeSource
    ) {
        let store = SQLProvisioStore(handle: handle)
        let metrics = ProvisioMetrics()
        let cards = CardService(store: store, vault: PANVault(keyring: keys.keyring), clock: clock)
        self.handle = handle
        self.store = store
        self.access = AccessService(store: store, clock: clock)
        self.cards = cards
        self.metrics = metrics
        self.clock = clock
        self.provisioning = ProvisioningService(
            store: store, cards: cards,
            applePayloads: ApplePayloadBuilder(validator: chainValidator, tavSigner: TAVSigner(privateKey: keys.tavSigningKey)),
            pushData: WalletPushDataBuilder(networkKey: networkKey, networkKeyID: networkKeyID),
            metrics: metrics, clock: clock)
    }
}
