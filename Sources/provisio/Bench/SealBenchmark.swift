import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto

/// Measures `ECCV2Sealer.seal` as the server runs it (a cached recipient, with its
/// `P256KeyAgreementTable`), the same seal without the table (swift-crypto's ECDH), and the bare
/// primitive chain that untabled seal is made of — P-256 key generation, ECDH, SHA-256 over the
/// same KDF input, AES-256-GCM — on one thread, in alternating rounds so all see the same machine
/// state, and against Python's `cryptography` doing the same work (`PythonSealReference`). The
/// figures of merit are the ratios.
struct SealBenchmark {
    struct Report {
        /// As the server seals: with the recipient's table where this platform has one.
        var sealsPerSecond: Double
        var untabledSealsPerSecond: Double
        var primitivesPerSecond: Double
        var tableInUse: Bool
        /// Python `cryptography` doing the same work, or why it did not run.
        var python: Result<(sealsPerSecond: Double, version: String), PythonSealReference.Unavailable>
        /// The seal's own overhead over the primitives it calls (both with swift-crypto's ECDH).
        var ratio: Double { untabledSealsPerSecond / primitivesPerSecond }
        var pythonRatio: Double? { (try? python.get()).map { sealsPerSecond / $0.sealsPerSecond } }
        var meetsTarget: Bool { ratio >= SealBenchmark.targetRatio && (pythonRatio ?? .infinity) >= SealBenchmark.pythonTarget }
        var rounds: Int
        var text: String {
            let build: String
            #if DEBUG
                build = "debug build — figures are not representative; use `swift run -c release`"
            #else
                build = "release build"
            #endif
            let pythonLines: String
            switch python {
            case .success(let reference):
                let ratio = sealsPerSecond / reference.sealsPerSecond
                pythonLines = """
                      Python reference         \(String(format: "%10.0f", reference.sealsPerSecond)) seals/s  (\(reference.version), same work, one core)
                      ratio seal / Python      \(String(format: "%10.3f", ratio))  (target ≥ \(SealBenchmark.pythonTarget)) \(ratio >= SealBenchmark.pythonTarget ? "✓" : "✗")
                    """
            case .failure(let unavailable):
                pythonLines = "  Python reference         not run: \(unavailable.reason)"
            }
            return """
                ECC_V2 seal benchmark (one core, \(rounds) alternating rounds, \(build))
                  payload: Apple pass JSON, \(SealBenchmark.plaintext.count) bytes
                  ECCV2Sealer.seal         \(String(format: "%10.0f", sealsPerSecond)) seals/s  (\(tableInUse ? "with the recipient's table, as the server seals" : "no recipient table on this platform"))
                  seal without the table   \(String(format: "%10.0f", untabledSealsPerSecond)) seals/s  (swift-crypto ECDH; table speed-up \(String(format: "%.2f", sealsPerSecond / untabledSealsPerSecond))×)
                  raw primitive chain      \(String(format: "%10.0f", primitivesPerSecond)) chains/s  (keygen + ECDH + SHA-256 + AES-256-GCM)
                  ratio untabled seal / primitives \(String(format: "%6.3f", ratio))  (target ≥ \(SealBenchmark.targetRatio)) \(ratio >= SealBenchmark.targetRatio ? "✓" : "✗")
                \(pythonLines)
                """
        }
    }

    static let targetRatio = 0.95
    static let pythonTarget = 1.5
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
    /// Off inside `bench apple-pay`, whose ratio is to this process's own seal rate.
    var withPythonReference = true

    func run() async throws -> Report {
        let recipient = P256.KeyAgreement.PrivateKey().publicKey
        let cachedRecipient = P256Recipient(recipient)
        let untabled = ECCV2Sealer(recipient: recipient)
        let plaintext = Self.plaintext
        let zeroNonce = try AES.GCM.Nonce(data: Data(count: 12))
        let info = Data([0x0D] + Array("id-aes256-GCM".utf8) + Array("Apple".utf8))
        let counter = Data([0, 0, 0, 1])

        // Warm up; the cached recipient has its table from the second seal on.
        for _ in 0..<200 {
            _ = try ECCV2Sealer(recipient: cachedRecipient).seal(plaintext)
            _ = try untabled.seal(plaintext)
        }
        let sealer = ECCV2Sealer(recipient: cachedRecipient)
        let roundSeconds = totalSeconds / Double(4 * Self.rounds)
        var sealCount = 0
        var sealTime = Duration.zero
        var untabledCount = 0
        var untabledTime = Duration.zero
        var primitiveCount = 0
        var primitiveTime = Duration.zero
        var sink = 0
        var python = await PythonRounds(enabled: withPythonReference)
        for _ in 0..<Self.rounds {
            await python.run(seconds: roundSeconds, plaintextLength: plaintext.count)
            let (count, elapsed) = try Self.measure(for: roundSeconds) {
                let sealed = try sealer.seal(plaintext)
                sink &+= sealed.encryptedPassData.count
            }
            sealCount += count
            sealTime += elapsed
            let (count1, elapsed1) = try Self.measure(for: roundSeconds) {
                let sealed = try untabled.seal(plaintext)
                sink &+= sealed.encryptedPassData.count
            }
            untabledCount += count1
            untabledTime += elapsed1
            let (count2, elapsed2) = try Self.measure(for: roundSeconds) {
                let ephemeral = EphemeralKeyAgreementKey.generate()
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
            untabledSealsPerSecond: Double(untabledCount) / Self.seconds(untabledTime),
            primitivesPerSecond: Double(primitiveCount) / Self.seconds(primitiveTime),
            tableInUse: cachedRecipient.tableForSealing() != nil,
            python: python.result,
            rounds: Self.rounds
        )
    }

    /// One Python round per Swift round, taken in turn, so both see the machine in the same state.
    private struct PythonRounds {
        var state: Result<(PythonSealReference, version: String), PythonSealReference.Unavailable>
        var seals = 0
        var seconds = 0.0

        init(enabled: Bool) async {
            state = enabled ? await PythonSealReference.locate() : .failure(.init(reason: "not asked for"))
        }

        mutating func run(seconds roundSeconds: Double, plaintextLength: Int) async {
            guard case .success(let (reference, _)) = state else { return }
            do {
                let round = try await reference.round(seconds: roundSeconds, plaintextLength: plaintextLength)
                seals += round.seals
                seconds += round.seconds
            } catch let unavailable as PythonSealReference.Unavailable {
                state = .failure(unavailable)
            } catch {
                state = .failure(.init(reason: "python3 could not be started: \(error)"))
            }
        }

        var result: Result<(sealsPerSecond: Double, version: String), PythonSealReference.Unavailable> {
            state.map { (Double(seals) / seconds, $0.version) }
        }
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
