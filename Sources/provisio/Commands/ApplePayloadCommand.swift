import ArgumentParser
import Foundation
import ProvisioCore
import ProvisioCrypto

struct ApplePayloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apple-payload",
        abstract: "Build Apple Pay's encrypted provisioning payload from one JSON request on standard input.",
        discussion: """
            Input: {"primaryAccountNumber", "expiration": "MM/YY", "name", "certificates": [base64 DER],
            "nonce", "nonceSignature" (hex or base64), "encryptionScheme": "ECC_V2" | "RSA_V2"}.
            Output: {"encryptedPassData", "activationData", "ephemeralPublicKey" | "wrappedKey"} (base64).
            On invalid input: exit status 2 and one line on standard error with the error code.
            """
    )

    static let maximumInputBytes = 1 << 20

    @Option(name: .long, help: "The key directory (from `provisio keys init`).")
    var keys: String

    @Option(name: .customLong("trust-anchor"), help: "A PEM root to trust instead of Apple Root CA - G3 (repeatable).")
    var trustAnchors: [String] = []

    @Option(name: .long, help: "Validate the chain at this ISO 8601 time instead of now.")
    var at: String?

    func run() throws {
        try runReportingErrors {
            let time = try validationTime()
            let anchors =
                try trustAnchors.isEmpty ? [TrustAnchors.appleRootCAG3] : trustAnchors.flatMap(TrustAnchors.load(pemFile:))
            let signingKey = try KeyDirectory(path: keys).load().tavSigningKey
            let input = FileHandle.standardInput.readDataToEndOfFile()
            guard input.count <= Self.maximumInputBytes else {
                throw ProvisioError(.invalidRequest, "The request is larger than \(Self.maximumInputBytes) bytes.")
            }
            let request = try ApplePayloadRequest.decode(from: input)
            let builder = ApplePayloadBuilder(
                validator: AppleCertificateChainValidator(trustAnchors: anchors),
                tavSigner: TAVSigner(privateKey: signingKey)
            )
            let response = try builder.build(request, at: time)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(response), as: UTF8.self))
        }
    }

    private func validationTime() throws -> Date {
        guard let at else { return Date() }
        guard let date = try? Date(at, strategy: .iso8601) else {
            throw ProvisioError(.invalidArgument, "--at must be an ISO 8601 time such as 2020-01-01T00:00:00Z.")
        }
        return date
    }
}
