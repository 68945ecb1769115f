import ArgumentParser

@main
struct Provisio: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provisio",
        abstract: "Open push provisioning for card issuers: Apple Pay payloads, key material and the sandbox.",
        subcommands: [
            DemoCommand.self, ServeCommand.self, TenantsCommand.self, APIKeysCommand.self, OperatorsCommand.self,
            KeysCommand.self, SandboxCommand.self,
            ApplePayloadCommand.self, DoctorCommand.self,
            BenchCommand.self,
            AuditCommand.self,
            P256TableCheckCommand.self,
        ]
    )
}
