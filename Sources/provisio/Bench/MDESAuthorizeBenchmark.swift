import Foundation
import NIOCore
import ProvisioCore
import ProvisioCrypto

/// The MDES part of `bench apple-pay`: `POST /mdes/{tenant}/issuerServices/1/0/authorizeService`
/// on the same server processes, right after the Apple Pay runs, over mutual-TLS keep-alive
/// connections, saturated and then paced, every answer a 200 with `decision` `APPROVED`. Each
/// request has its own body from a pool sealed beforehand (`MDESAuthorizeRequests`), so the
/// load generator does no cryptography while it measures. Then the payload's decryption alone
/// on one core (`MDESPayloadDecrypter` with the tenant's key, as the listener runs it): the RSA
/// private-key operation that an MDES request adds over the Apple one, and what it costs.
struct MDESAuthorizeBenchmark {
    struct Result {
        var saturated: HTTPLoadGenerator.Result
        /// This process's CPU during the saturated run, in cores: what the load generator took
        /// of the machine (TLS and HTTP; no payload cryptography, done beforehand).
        var generatorCores: Double
        var paced: HTTPLoadGenerator.Result
        var pacedShare: Double
        /// Bodies sealed before the runs, and how long that took (not measured time).
        var bodiesBuilt: Int
        var buildSeconds: Double
        /// `MDESPayloadDecrypter.decrypt` per second on one core, same run.
        var opensPerSecond: Double
        var keySizeInBits: Int
    }

    let setup: MDESBenchmarkSetup
    let requests: MDESAuthorizeRequests
    let ports: [Int]
    let seconds: Int
    let connections: Int
    var pacedShare = 0.5

    /// - Parameter rateHint: the Apple Pay endpoint's saturated rate, to size the warm-up's pool.
    func run(rateHint: Double) async throws -> Result {
        var built = 0
        var buildTime = Duration.zero
        func pool(_ count: Int) async throws -> RequestBodyPool {
            let start = ContinuousClock.now
            let pool = try await requests.pool(first: built, count: count)
            built += count
            buildTime += ContinuousClock.now - start
            return pool
        }
        var generator = HTTPLoadGenerator(
            host: "127.0.0.1", ports: ports, path: setup.path("authorizeService"), headers: [], body: Data(),
            connections: connections, duration: .seconds(1))
        generator.tls = setup.tls
        generator.expectedField = ResponseFieldCheck(name: "decision", value: "APPROVED")
        // Warm-up, which also estimates the rate: a pool that runs dry ends it early, and the
        // rate is still what it answered in the time it ran.
        generator.bodies = try await pool(Int(min(max(rateHint, 200), 20_000)) + connections)
        let warm = try await generator.run()
        guard warm.failures == 0, !warm.latenciesNanoseconds.isEmpty else {
            throw ProvisioError(.internalError, "MDES authorizeService failed in the warm-up (\(warm.failures) failed).")
        }
        // Saturated: twice the warm-up's rate for the whole run; should it still run dry, the
        // run ends there and the report says so.
        let warmRate = Double(warm.latenciesNanoseconds.count) / ApplePayServerBenchmark.seconds(warm.elapsed)
        generator.duration = .seconds(seconds)
        generator.bodies = try await pool(Int(warmRate * 2 * Double(seconds)) + connections)
        let cpuBefore = ProcessCPUTime.seconds()
        let saturated = try await generator.run()
        let generatorCores = (ProcessCPUTime.seconds() - cpuBefore) / ApplePayServerBenchmark.seconds(saturated.elapsed)
        let rate = Double(saturated.latenciesNanoseconds.count) / ApplePayServerBenchmark.seconds(saturated.elapsed)
        var paced = generator
        paced.rate = rate * pacedShare
        paced.bodies = try await pool(Int(rate * pacedShare * Double(seconds) * 1.1) + 2 * connections)
        let pacedResult = try await paced.run()
        let opens = try Self.opensPerSecond(key: setup.issuerKey, requests: requests)
        return Result(
            saturated: saturated, generatorCores: generatorCores, paced: pacedResult, pacedShare: pacedShare, bodiesBuilt: built,
            buildSeconds: ApplePayServerBenchmark.seconds(buildTime), opensPerSecond: opens,
            keySizeInBits: setup.issuerKey.keySizeInBits)
    }

    /// The listener's decryption of one payload (RSA unwrap of the AES key, AES-GCM), in a loop
    /// on one core for a second, over 64 payloads sealed beforehand.
    static func opensPerSecond(key: MDESIssuerKey, requests: MDESAuthorizeRequests) throws -> Double {
        let decrypter = try MDESPayloadDecrypter(keys: [key])
        let plaintext = Data(#"{"dataValidUntilTimestamp":"2099-01-01T00:00:00Z"}"#.utf8)
        let payloads = try (0..<64).map { _ in
            let envelope = try requests.encryptor.seal(plaintext)
            return MDESEncryptedPayload(
                encryptedData: envelope.encryptedData, encryptedKey: envelope.encryptedKey,
                publicKeyFingerprint: envelope.publicKeyFingerprint, oaepHashingAlgorithm: envelope.oaepHashingAlgorithm,
                iv: envelope.iv, algorithmCipherMode: envelope.algorithmCipherMode, tag: envelope.tag, aad: envelope.aad)
        }
        let clock = ContinuousClock()
        let start = clock.now
        var count = 0
        while clock.now - start < .seconds(1) {
            _ = try decrypter.decrypt(payloads[count % payloads.count])
            count += 1
        }
        return Double(count) / ApplePayServerBenchmark.seconds(clock.now - start)
    }
}
