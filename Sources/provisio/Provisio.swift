import ArgumentParser

@main
struct Provisio: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provisio",
        abstract: "Open push provisioning for card issuers: Apple Pay payloads, key material and the sandbox.",
        subcommands: [KeysCommand.self, SandboxCommand.self, ApplePayloadCommand.self, BenchCommand.self]
    )
}
