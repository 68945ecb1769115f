import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto

/// Measures `ECCV2Sealer.seal` against the bare primitive chain it is made of — P-256 key
/// generation, ECDH, SHA-256 over the same KDF input, AES-256-GCM — on one thread, in
/// alternating rounds so both see the same machine state. The figure of merit is the ratio.
struct SealBenchmark {
    struct Report {
        var sealsPerSecond: Double
        var primitivesPerSecond: Double
        var ratio: Double { sealsPerSecond / primitivesPerSecond }
        var meetsTarget: Bool { ratio >= SealBenchmark.targetRatio }
        var rounds: Int
        var text: String {
            let build: String
            #if DEBUG
                build = "debug build — figures are not representative; use `swift run -c release`"
            #else
                build = "release build"
            #endif
            return """
                ECC_V2 seal benchmark (one core, \(rounds) alternating rounds, \(build))
                  payload: Apple pass JSON, \(SealBenchmark.plaintext.count) bytes
                  ECCV2Sealer.seal         \(String(format: "%10.0f", sealsPerSecond)) seals/s
                  raw primitive chain      \(String(format: "%10.0f", primitivesPerSecond)) chains/s  (keygen + ECDH + SHA-256 + AES-256-GCM)
                  ratio seal / primitives  \(String(format: "%10.3f", ratio))  (target ≥ \(SealBenchmark.targetRatio)) \(meetsTarget ? "✓" : "✗")
                """
        }
    }

    static let targetRatio = 0.95
    static let rounds = 6

    static let plaintext: Data = {
        let payload = ApplePassPayload(
            primaryAccountNumber: try! PrimaryAccountNumber("4111111111111111"),
            expiry: try! CardExpiry(month: 12, year: 2030),
            name: try! CardholderName("Jane Appleseed"),
            nonce: Data([0x3f, 0x2a, 0x91, 0x07]),
            nonceSignature: Data((0..<71).map { UInt8($0) })
        )
        return payload.jsonData()
    }()

    let totalSeconds: Double

    func run() throws -> Report {
        let recipient = P256.KeyAgreement.PrivateKey().publicKey
        let sealer = ECCV2Sealer(recipient: recipient)
        let plaintext = Self.plaintext
        let zeroNonce = try AES.GCM.Nonce(data: Data(count: 12))
        let info = Data([0x0D] + Array("id-aes256-GCM".utf8) + Array("Apple".utf8))
        let counter = Data([0, 0, 0, 1])

        // Warm up both paths.
        for _ in 0..<200 {
            _ = try sealer.seal(plaintext)
        }
        let roundSeconds = totalSeconds / Double(2 * Self.rounds)
        var sealCount = 0
        var sealTime = Duration.zero
        var primitiveCount = 0
        var primitiveTime = Duration.zero
        var sink = 0
        for _ in 0..<Self.rounds {
            let (count, elapsed) = try Self.measure(for: roundSeconds) {
                let sealed = try sealer.seal(plaintext)
                sink &+= sealed.encryptedPassData.count
            }
            sealCount += count
            sealTime += elapsed
            let (count2, elapsed2) = try Self.measure(for: roundSeconds) {
                let ephemeral = P256.KeyAgreement.PrivateKey()
                let publicPoint = ephemeral.publicKey.x963Representation
                let shared = try ephemeral.sharedSecretFromKeyAgreement(with: recipient)
                var hasher = SHA256()
                hasher.update(data: counter)
                shared.withUnsafeBytes { hasher.update(bufferPointer: $0) }
                hasher.update(data: info)
                hasher.update(data: publicPoint)
                let key = SymmetricKey(data: hasher.finalize())
                let box = try AES.GCM.seal(plaintext, using: key, nonce: zeroNonce)
                sink &+= box.ciphertext.count + box.tag.count
            }
            primitiveCount += count2
            primitiveTime += elapsed2
        }
        precondition(sink != 0)
        return Report(
            sealsPerSecond: Double(sealCount) / Self.seconds(sealTime),
            primitivesPerSecond: Double(primitiveCount) / Self.seconds(primitiveTime),
            rounds: Self.rounds
        )
    }

    private static func measure(for seconds: Double, _ body: () throws -> Void) throws -> (Int, Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: .milliseconds(Int(seconds * 1000)))
        var count = 0
        var now = start
        while now < deadline {
            for _ in 0..<50 { try body() }
            count += 50
            now = clock.now
        }
        return (count, now - start)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
