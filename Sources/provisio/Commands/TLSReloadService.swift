import Logging
import ProvisioServer
import ServiceLifecycle
import UnixSignals

/// Reloads the TLS certificate and key from disk on every SIGHUP (a renewed certificate goes
/// live without a restart); a failed reload keeps the certificate in use and logs why.
struct TLSReloadService: Service {
    let credentials: TLSCredentials
    let logger: Logger

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        await cancelWhenGracefulShutdown {
            for await _ in signals {
                do {
                    try credentials.reload()
                    logger.info("reloaded the TLS certificate", metadata: ["file": "\(credentials.certificateFile)"])
                } catch {
                    logger.error(
                        "TLS reload failed; keeping the certificate in use",
                        metadata: ["reason": "\(error)"])
                }
            }
        }
    }
}
