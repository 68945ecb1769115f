import Logging
import ProvisioCrypto
import ProvisioServer
import ServiceLifecycle
import UnixSignals

/// `serve`'s watch on the vault keys: the periodic check, and SIGHUP for a reload at once
/// (alongside the TLS reload, which traps the same signal).
enum VaultKeysWatch {
    static func service(services: ServerServices, keysDirectory: String, logger: Logger) async -> some Service {
        VaultKeysService(
            directory: KeyDirectory(path: keysDirectory), vault: services.vault, store: services.store,
            clock: services.clock, reloadRequests: await UnixSignalsSequence(trapping: .sighup), logger: logger)
    }
}
