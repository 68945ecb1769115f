import ArgumentParser
import Foundation
import ProvisioCore
import ProvisioSandbox

struct SandboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "The sandbox counterparty (Apple Wallet, Apple's provisioning service, the card network).",
        subcommands: [CA.self]
    )

    struct CA: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ca",
            abstract: "Generate an Apple-like provisioning PKI: root.pem, chain.json, leaf-key.pem (+ RSA_V2 variants).")

        @Option(name: .long, help: "Directory to write the files to.")
        var out: String

        func run() throws {
            try runReportingErrors {
                let ca = try SandboxCertificateAuthority.generate(profile: SandboxCAProfile(now: Date()))
                try SandboxCADirectory.write(ca, to: out)
                print(
                    """
                    Wrote the sandbox CA to \(out): \(SandboxCADirectory.files.joined(separator: ", ")).
                    Trust it with: provisio apple-payload --keys DIR --trust-anchor \((out as NSString).appendingPathComponent("root.pem"))
                    """)
            }
        }
    }
}
