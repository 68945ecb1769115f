import Foundation
import ProvisioCore
import Testing

@testable import ProvisioFuzzing

/// The committed corpus, found from this file: Tests/ProvisioFuzzingTests/ → the package root.
let corpus = FuzzCorpus(
    root: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus", isDirectory: true))

@Suite struct ProvisioFuzzingTests {
    // Fuzzing itself is libFuzzer's (Tools/fuzz.sh, in CI after the tests). Here every committed
    // seed goes through the same checks, so a parser change that breaks one fails `swift test`.

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
    func everySeedHoldsTheInvariants(_ name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let harness = try FuzzHarness(target: target, corpus: corpus)
        var refusals: Set<String> = []
        for seed in harness.seeds {
            let outcome = harness.run(seed.bytes)
            if case .violation(let reason) = outcome { Issue.record("\(name)/\(seed.name): \(reason)") }
            if seed.mustBeAccepted { #expect(outcome == .accepted, "\(name)/\(seed.name)") }
            if case .refused(let code) = outcome { refusals.insert(code) }
        }
        // Not vacuous: the invalid seeds reach the parser and are refused by it.
        #expect(!refusals.isEmpty, "no seed of \(name) is refused")
    }

    @Test(arguments: FuzzTargets.names)
    func dictionaryIsUsable(_ name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let lines = FuzzDictionary.render(target.dictionary, name: name).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.count >= 10, "\(name) has \(lines.count) dictionary entries libFuzzer can use")
        #expect(lines.allSatisfy { $0.hasPrefix("\"") && $0.hasSuffix("\"") })
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
                throw ProvisioError(.init("BadCode"), "A code that is not snake_case.")
            }
            if text.contains("{}") {
                // Echoes the seed's card number (from the valid-card-request seed).
                throw ProvisioError(.init("leaky"), "The card 4111111111111111 is refused.")
            }
            if input.first == UInt8(ascii: "[") { throw ProvisioError(.init("bad_input"), "Refused.") }
        }
    }

    @Test func harnessReportsEachPlantedBug() throws {
        let harness = FuzzHarness(target: PlantedBugs(), seeds: try corpus.seeds(inDirectory: "json"))
        func reason(_ text: String) -> String {
            guard case .violation(let reason) = harness.run(Array(text.utf8)) else { return "" }
            return reason
        }
        #expect(reason("a..b").contains("not a ProvisioError") && reason("a..b").contains("NotAProvisioError"))
        #expect(reason("%00").contains("'BadCode', which is not snake_case"))
        // Echoes the card number of the valid-card-request seed, which the harness collected.
        #expect(reason("{}").contains("fragment of a secret-like field"))
        #expect(harness.run(Array("[1]".utf8)) == .refused(code: "bad_input"))
        #expect(harness.run(Array("plain".utf8)) == .accepted)
        // A valid seed that starts with "[" is refused with bad_input: the harness makes that a violation.
        let seed = try #require(harness.seeds.first { $0.mustBeAccepted && $0.bytes.first == UInt8(ascii: "[") })
        guard case .violation(let refusedSeed) = harness.run(seed.bytes) else {
            Issue.record("the refused valid seed \(seed.name) was not reported")
            return
        }
        #expect(refusedSeed.contains("\(seed.name) must be accepted"))
    }

    @Test func withoutTheSeedsTheLeakIsNotSeen() {
        // The secrets come from the corpus: the same target without seeds has none to look for.
        #expect(FuzzHarness(target: PlantedBugs(), seeds: []).run(Array("{}".utf8)) == .refused(code: "leaky"))
    }

    @Test func knownFindingsMatchTheirTargetAndReason() {
        let finding = FuzzKnownFinding(id: "f1", target: "json", reasonContains: "offset", summary: "s")
        #expect(finding.matches(target: "json", reason: "the error offset 9 is outside the input"))
        #expect(!finding.matches(target: "webhook", reason: "the error offset 9 is outside the input"))
        #expect(!finding.matches(target: "json", reason: "a different value"))
        // Every listed finding names a real target (a typo would let the bug fail every run).
        for known in FuzzKnownFindings.all { #expect(FuzzTargets.named(known.target) != nil, "\(known.id)") }
    }

    @Test func dictionaryEscapesWhatLibFuzzerNeedsEscaped() {
        let text = FuzzDictionary.render(
            [Array(#""pan":"#.utf8), [0x5C, 0x00, 0xFF, 0x41], [], Array(repeating: 0x61, count: 65)], name: "t")
        let expected = [
            "# libFuzzer dictionary of the t target, from its FuzzTarget.dictionary.",
            #""\"pan\":""#,
            #""\\\x00\xffA""#,
        ]
        #expect(text == expected.joined(separator: "\n") + "\n")
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
}
