import Foundation
import ProvisioCore

/// The Wallet extension's answers with a large issuer: 200 cards in the App Group
/// configuration, about half of them already on the iPhone and a quarter on the Watch. Each
/// call does what the extension does per request: build the pass-library snapshot from the
/// passes PassKit returns, then answer from the cached configuration. Targets: `status` p99
/// under 1 ms (Apple allows 100 ms), `passEntries` + `remotePassEntries` under 50 ms.
struct WalletExtensionBenchmark {
    static let cardCount = 200
    static let statusTarget: Duration = .milliseconds(1)
    static let entriesTarget: Duration = .milliseconds(50)

    var iterations: Int

    struct Figures {
        var p50: Duration
        var p99: Duration
        var max: Duration
    }

    func run() throws -> String {
        let (configuration, passes) = Self.fixture()
        let json = try configuration.encoded()
        let session = ExtensionSession(accountID: configuration.accounts[0].id, expiresAt: Date().addingTimeInterval(3600))

        let status = measure {
            let library = PassLibrarySnapshot(passes: passes, isWatchPaired: true, canAddPaymentPasses: true)
            let answer = ExtensionStatusResolver.status(
                configuration: configuration, session: session, library: library, now: Date())
            precondition(answer.passEntriesAvailable && answer.remotePassEntriesAvailable)
        }
        let cold = try measureThrowing {
            let decoded = try ExtensionConfiguration.decode(from: json)
            let library = PassLibrarySnapshot(passes: passes, isWatchPaired: true, canAddPaymentPasses: true)
            _ = ExtensionStatusResolver.status(configuration: decoded, session: session, library: library, now: Date())
        }
        var counts = (0, 0)
        let entries = measure {
            let library = PassLibrarySnapshot(passes: passes, isWatchPaired: true, canAddPaymentPasses: true)
            let selector = PassEntrySelector(configuration: configuration, library: library, now: Date())
            counts = (selector.passEntries.count, selector.remotePassEntries.count)
        }
        let build: String
        #if DEBUG
            build = "debug build — figures are not representative; use `swift run -c release`"
        #else
            build = "release build"
        #endif
        return """
            Wallet extension benchmark (\(Self.cardCount) cards, \(passes.count) passes, \(iterations) calls each, \(build))
              status                        p50 \(Self.format(status.p50))  p99 \(Self.format(status.p99))  max \(Self.format(status.max))  p99/target \(Self.ratio(status.p99, Self.statusTarget)) \(status.p99 < Self.statusTarget ? "✓" : "✗")
              status, decoding the JSON too p50 \(Self.format(cold.p50))  p99 \(Self.format(cold.p99))  (once per extension process)
              passEntries + remote          p50 \(Self.format(entries.p50))  p99 \(Self.format(entries.p99))  max \(Self.format(entries.max))  p99/target \(Self.ratio(entries.p99, Self.entriesTarget)) \(entries.p99 < Self.entriesTarget ? "✓" : "✗")
              entries offered: \(counts.0) on the iPhone, \(counts.1) on the Watch
            """
    }

    private func measure(_ body: () -> Void) -> Figures {
        (try? measureThrowing(body)) ?? Figures(p50: .zero, p99: .zero, max: .zero)
    }

    private func measureThrowing(_ body: () throws -> Void) throws -> Figures {
        for _ in 0..<min(50, iterations) { try body() }
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = clock.now
            try body()
            samples.append(clock.now - start)
        }
        samples.sort()
        return Figures(
            p50: samples[samples.count / 2], p99: samples[min(samples.count - 1, samples.count * 99 / 100)], max: samples.last!)
    }

    /// 200 cards; cards 0, 2, 4… on the iPhone (a few awaiting activation), every fourth on the
    /// Watch, and some passes from elsewhere without a primary account identifier.
    static func fixture() -> (ExtensionConfiguration, [WalletPassSnapshot]) {
        let networks: [PaymentNetwork] = [.visa, .mastercard, .amex, .discover]
        let cards = (0..<cardCount).map { index in
            WalletCard(
                id: "card_\(index)", primaryAccountIdentifier: "pai_\(index)", title: "Card \(index)",
                last4: String(format: "%04d", (index * 37) % 10_000), cardholderName: "Jane Appleseed",
                network: networks[index % networks.count], artReference: "card_\(index).png")
        }
        var passes: [WalletPassSnapshot] = []
        for (index, card) in cards.enumerated() {
            if index % 2 == 0 {
                passes.append(
                    pass(card, index: index, device: .phone, state: index % 10 == 0 ? .requiresActivation : .activated))
            }
            if index % 4 == 0 { passes.append(pass(card, index: index, device: .watch, state: .activated)) }
        }
        for extra in 0..<50 {
            passes.append(
                WalletPassSnapshot(
                    serialNumber: "other_\(extra)", primaryAccountIdentifier: nil,
                    primaryAccountNumberSuffix: String(format: "%04d", 9000 + extra), deviceAccountIdentifier: "DAI_O\(extra)",
                    activationState: .activated, device: extra % 2 == 0 ? .phone : .watch))
        }
        let account = ExtensionAccount(issuerID: "bench-bank", consumerID: "customer", cards: cards)
        return (ExtensionConfiguration(accounts: [account], savedAt: Date()), passes)
    }

    private static func pass(_ card: WalletCard, index: Int, device: WalletDevice, state: PassActivationState)
        -> WalletPassSnapshot
    {
        WalletPassSnapshot(
            serialNumber: "serial_\(device)_\(index)", primaryAccountIdentifier: card.primaryAccountIdentifier,
            primaryAccountNumberSuffix: card.last4, deviceAccountIdentifier: "DAI_\(device)_\(index)", activationState: state,
            device: device)
    }

    static func format(_ duration: Duration) -> String {
        String(format: "%8.3f ms", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000)
    }

    static func ratio(_ value: Duration, _ target: Duration) -> String {
        String(format: "%.3f", value / target)
    }
}
