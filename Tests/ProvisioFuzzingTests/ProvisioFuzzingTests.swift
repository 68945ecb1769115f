import Foundation
import ProvisioCore
import Testing

@testable import ProvisioFuzzing

/// The committed corpus, found from this file: Tests/ProvisioFuzzingTests/ → the package root.
let corpus = FuzzCorpus(
    root: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus", isDirectory: true))

@Suite struct ProvisioFuzzingTests {
    /// Iterations per target in `swift test` (debug build, two cores shared with the rest of the
    /// suite): about ten seconds in all. `provisio-fuzz` runs as many as asked.
    static let iterations: [String: Int] = [
        "json": 2500, "payload-request": 2000, "certificate-chain": 500, "deep-link": 2000,
        "extension-configuration": 1500, "webhook": 2000,
    ]
    static let seed: UInt64 = 0x5EED_F022

    @Test func splitMixIsTheReferenceSequence() {
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test func iterationsAreReproducibleOnTheirOwn() throws {
        let target = StrictJSONTarget()
        let seeds = try corpus.seeds(for: target)
        let fuzzer = Fuzzer(seed: 7)
        let first = (0..<300).map { fuzzer.input(for: target, seeds: seeds, iteration: $0) }
        let again = (0..<300).reversed().map { fuzzer.input(for: target, seeds: seeds, iteration: $0) }.reversed()
        #expect(first == Array(again))
        #expect(Array(first.prefix(seeds.count)) == seeds.map(\.bytes))
        #expect(Set(first).count > 250, "mutations should rarely repeat")
        #expect(Fuzzer(seed: 8).input(for: target, seeds: seeds, iteration: 200) != first[200])
    }

    @Test func corpusIsSmallAndCoversEveryTarget() throws {
        #expect(try corpus.totalSize() < 200_000)
        for target in FuzzTargets.all() {
            let seeds = try corpus.seeds(for: target)
            #expect(seeds.count >= 5, "\(target.name) has \(seeds.count) seeds")
            #expect(seeds.contains { $0.mustBeAccepted }, "\(target.name) has no valid seed")
            #expect(seeds.contains(where: { !$0.mustBeAccepted }), "\(target.name) has no invalid seed")
        }
    }

    @Test(arguments: FuzzTargets.names)
    func targetHoldsItsInvariants(_ name: String) async throws {
        let target = try #require(FuzzTargets.named(name))
        let seeds = try corpus.seeds(for: target)
        var fuzzer = Fuzzer(seed: Self.seed)
        // Ends the process naming the input if one runs for a minute: a parser stuck in a loop would
        // otherwise hang the whole test run without saying where.
        let watchdog = FuzzWatchdog(hangLimit: .seconds(60)) { hung in fatalError("\(hung)") }
        fuzzer.monitors = [watchdog]
        let report = await fuzzer.run(target, seeds: seeds, iterations: Self.iterations[name] ?? 1000)
        print(report.summary)
        for violation in report.violations { Issue.record("\(violation)") }
        #expect(report.violationCount == 0)
        // Reported parser bugs the mutations run into: shown, not failed on (see FuzzKnownFindings).
        for example in report.knownFindingExamples {
            withKnownIssue("\(example.knownFinding ?? "")", isIntermittent: true) { Issue.record("\(example)") }
        }
        // Not vacuous: valid inputs get through and refusals take more than one path.
        #expect(report.accepted >= seeds.filter(\.mustBeAccepted).count)
        #expect(report.refusals.count >= (name == "deep-link" ? 1 : 2), "refusals \(report.refusals)")
    }

    // MARK: Parser bugs the fuzzer found, fixed

    @Test func deepLinkRefusesARepeatedParameterWithoutAValue() throws {
        for query in [
            "passTypeIdentifier=paymentpass.com.apple&serialNumber=S1&action&action=verify",
            "serialNumber&passTypeIdentifier=paymentpass.com.apple&serialNumber=S1&action=verify",
            "passTypeIdentifier=paymentpass.com.apple&serialNumber=S1&action=%FF&action=verify",
        ] {
            let url = try #require(URL(string: "issuerapp://verify?" + query))
            #expect(throws: ProvisioError.self, "\(query)") { try WalletDeepLink(url: url) }
        }
    }

    @Test func binaryTextRefusesTextThatIsNotBase64() {
        for text in ["==", "====", "AB=C", "QQ==QQ==", "3045=="] {
            #expect(StrictBinaryText.decodeHexOrBase64(text) == nil, "\(text)")
        }
        #expect(StrictBinaryText.decodeHexOrBase64(" a1B2 ") == [0xA1, 0xB2])
        #expect(StrictBinaryText.decodeHexOrBase64("QQ") == [0x41])
        #expect(StrictBinaryText.decodeHexOrBase64("QQ=") == [0x41])
        #expect(StrictBinaryText.decodeHexOrBase64("-_8=") == [0xFB, 0xFF])
        #expect(StrictBinaryText.decodeHexOrBase64("QUJD") == Array("ABC".utf8))
        #expect(StrictBinaryText.decodeHexOrBase64("Q") == nil)
        for text in ["==", "====", "AB=C", "QQ==QQ==", "3045==", "QR==", "QUI=x", "Q", "QQ="] {
            #expect(BinaryText.decodeHexOrBase64(text) == nil, "\(text)")
        }
        #expect(BinaryText.decodeHexOrBase64("QQ==") == Data([0x41]) && BinaryText.decodeHexOrBase64("QQ") == Data([0x41]))
        #expect(
            BinaryText.decodeHexOrBase64("-_8=") == Data([0xFB, 0xFF]) && BinaryText.decodeBase64("+/8") == Data([0xFB, 0xFF]))
    }

    // MARK: The harness catches planted bugs

    /// A parser that fails in every way the invariants forbid, each on its own input pattern.
    struct PlantedBugs: FuzzTarget {
        struct NotAProvisioError: Error {}

        let name = "planted"
        var seedsDirectory: String { "json" }
        var seedSecrets = SecretFragments()

        func secrets(inSeed seed: [UInt8]) -> [[UInt8]] { LenientJSON.values(forKey: "pan", in: seed) }

        func withSeedSecrets(_ secrets: SecretFragments) -> PlantedBugs {
            var copy = self
            copy.seedSecrets = secrets
            return copy
        }

        func run(input: [UInt8]) -> FuzzOutcome {
            do {
                try parse(input)
                return .accepted
            } catch {
                return FuzzChecks.refusal(error, codes: ["bad_input", "leaky"], secrets: seedSecrets)
            }
        }

        func parse(_ input: [UInt8]) throws {
            let text = String(decoding: input, as: UTF8.self)
            if text.contains("..") { throw NotAProvisioError() }
            if text.contains("%00") {
                throw ProvisioError(.init("BadCode", status: .badRequest), "A code that is not snake_case.")
            }
            if text.contains("{}") {
                // Echoes the seed's card number (from the valid-card-request seed).
                throw ProvisioError(.init("leaky", status: .badRequest), "The card 4111111111111111 is refused.")
            }
            if input.first == UInt8(ascii: "[") { throw ProvisioError(.init("bad_input", status: .badRequest), "Refused.") }
        }
    }

    @Test func harnessReportsANonProvisioErrorAndReproducesIt() async throws {
        let target = PlantedBugs()
        let seeds = try corpus.seeds(for: target)
        let fuzzer = Fuzzer(seed: Self.seed)
        let report = await fuzzer.run(target, seeds: seeds, iterations: 3000)
        let planted = report.violations.filter { $0.reason.contains("not a ProvisioError") }
        let first = try #require(planted.first, "the planted non-ProvisioError was not reported: \(report.summary)")
        #expect(first.reason.contains("NotAProvisioError"))
        #expect(String(decoding: first.input, as: UTF8.self).contains(".."))
        // The seed and iteration alone give back the failing input and the failure.
        #expect(fuzzer.input(for: target, seeds: seeds, iteration: first.iteration) == first.input)
        let again = await fuzzer.run(target, seeds: seeds, iterations: first.iteration..<(first.iteration + 1))
        #expect(again.violations.first?.input == first.input)
        #expect(again.violations.first?.reason == first.reason)
        #expect(first.description.contains("--seed \(Self.seed) --iteration \(first.iteration)"))
        #expect(first.description.contains(FuzzHex.encode(first.input)))
    }

    @Test func harnessReportsABadCodeALeakASlowInputAndARefusedValidSeed() async throws {
        let target = PlantedBugs()
        let seeds = try corpus.seeds(for: target)
        let report = await Fuzzer(seed: Self.seed).run(target, seeds: seeds, iterations: 3000)
        #expect(report.violations.contains { $0.reason.contains("'BadCode', which is not snake_case") })
        #expect(report.violations.contains { $0.reason.contains("fragment of a secret-like field") })
        // The valid seeds that start with "[" are refused with bad_input.
        #expect(report.violations.contains { $0.seedName != nil && $0.reason.contains("must be accepted") })

        struct Slow: FuzzTarget {
            let name = "slow"
            var seedsDirectory: String { "json" }
            func run(input: [UInt8]) -> FuzzOutcome {
                if input.count > 150 { Thread.sleep(forTimeInterval: 0.05) }
                return .accepted
            }
        }
        var fuzzer = Fuzzer(seed: Self.seed)
        fuzzer.timeLimit = .milliseconds(20)
        let slow = await fuzzer.run(Slow(), seeds: seeds, iterations: 12)
        #expect(slow.violationCount > 0)
        #expect(slow.violations.allSatisfy { $0.input.count > 150 && $0.reason.contains("over the limit") })
        #expect(try #require(slow.slowest).duration >= .milliseconds(50))
    }

    @Test func watchdogNamesAHungInput() async throws {
        let hung = Locked<FuzzViolation?>(nil)
        let dog = FuzzWatchdog(hangLimit: .milliseconds(100)) { violation in hung.withLock { $0 = violation } }
        dog.willRun(target: "stuck", seed: 3, iteration: 41, input: [0xDE, 0xAD])
        try await Task.sleep(for: .milliseconds(600))
        dog.didRun()
        let violation = try #require(hung.value)
        #expect(violation.target == "stuck" && violation.iteration == 41 && violation.input == [0xDE, 0xAD])
        #expect(violation.reason.contains("hang"))
    }

    // MARK: Pieces

    @Test func secretFragmentsFindSixByteEchoesOnly() {
        let secrets = SecretFragments([Array("4111111111111111".utf8), Array("abc".utf8)])
        #expect(secrets.leak(in: Array("card 411111 refused".utf8)) == Array("411111".utf8))
        #expect(secrets.leak(in: Array("card •••• 1111 refused, 13 to 19 digits".utf8)) == nil)
        #expect(secrets.leak(in: Array("abc".utf8)) == nil)
        #expect(
            FuzzChecks.digitRuns(Array("4111 1111-1111 1111 x 12345 y 123456".utf8)).map { String(decoding: $0, as: UTF8.self) }
                == ["4111111111111111", "123456"])
    }

    @Test func snakeCase() {
        for good in ["invalid_json", "a", "chain_expired", "extension_card_invalid_last4"] {
            #expect(FuzzChecks.isSnakeCase(good))
        }
        for bad in ["", "Invalid", "invalid-json", "_x", "9x", "invalid json", "ünïcode"] {
            #expect(!FuzzChecks.isSnakeCase(bad))
        }
    }

    @Test func lenientJSONReadsDuplicatesAndEscapes() {
        let values = LenientJSON.values(forKey: "id", in: Array(#"{"id":"a\u0062c","x":{"id" : 12},"id":"d"}"#.utf8))
        #expect(values.map { String(decoding: $0, as: UTF8.self) } == [#"a\u0062c"#, "abc", "12", "d"])
    }

    @Test func chainInputsSplitAtTheirOuterLengths() {
        let pieces = CertificateChainTarget.splitDER([0x30, 0x02, 0x05, 0x00, 0x30, 0x81, 0x01, 0xFF, 0x30, 0x84, 0xFF][...])
        #expect(pieces.map { Array($0) } == [[0x30, 0x02, 0x05, 0x00], [0x30, 0x81, 0x01, 0xFF], [0x30, 0x84, 0xFF]])
        let (scheme, input) = CertificateChainTarget.parse(Array("RSA_V2\nMIIB\n\nMIIC\n".utf8))
        #expect(scheme == .rsaV2)
        guard case .base64(let lines) = input else {
            Issue.record("expected base64 lines")
            return
        }
        #expect(lines == ["MIIB", "", "MIIC"])
    }

    @Test func mutatorStaysWithinItsLimit() {
        let mutator = Mutator(dictionary: [Array("key".utf8)], maxLength: 512)
        var random = SplitMix64(seed: 1)
        for _ in 0..<2000 {
            #expect(mutator.mutate(seeds: [Array(repeating: 0x41, count: 400)], using: &random).count <= 512)
        }
    }
}
