import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

struct Provisio: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provisio",
        abstract: "Open push provisioning for card issuers: Apple Pay payloads, key material and the sandbox.",
        subcommands: [
            DemoCommand.self, ServeCommand.self, TenantsCommand.self, APIKeysCommand.self, OperatorsCommand.self,
            KeysCommand.self, SandboxCommand.self,
            ApplePayloadCommand.self, DoctorCommand.self,
            BenchCommand.self,
        ]
    )
}

/// The entry point. `serve --concurrency-on-event-loops` makes SwiftNIO's event loops Swift
/// concurrency's global executor, which must happen on the main thread before any task starts;
/// so `main` is synchronous, does that first when asked, then runs the command.
@main
enum ProvisioMain {
    static let eventLoopExecutorFlag = "--concurrency-on-event-loops"

    /// Whether NIO's event loops run Swift concurrency in this process. Written once on the
    /// main thread before any task exists and only read afterwards, so the unsynchronized
    /// access cannot race.
    nonisolated(unsafe) static var eventLoopExecutorInstalled = false

    static func main() {
        if CommandLine.arguments.dropFirst().first == "serve", CommandLine.arguments.contains(eventLoopExecutorFlag) {
            eventLoopExecutorInstalled =
                NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        }
        Task {
            await Provisio.main()
            exit(0)
        }
        dispatchMain()
    }
}
