import Foundation
import ProvisioClient
import ProvisioCore
import ProvisioKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Writes what the Wallet extensions offer into the App Group: each card's art
/// (`Provisio/art/<card id>.png`) and the `ExtensionConfiguration` naming them. The non-UI
/// extension answers `status` and the pass entries from these files alone, so the app rewrites
/// them whenever the card list changes (after sign-in, on launch) and clears them on sign-out.
struct WalletExtensionPublisher: Sendable {
    let storage: any ExtensionStorage
    /// Downloads a card's art (`WalletCard.cardArtURL`).
    var fetchArt: @Sendable (URL) async throws -> Data = WalletExtensionPublisher.download
    /// Art used when a card has none (ship a 1536 × 969 PNG in the app bundle).
    var fallbackArt: Data?

    /// Publishes `cards` for `account`; returns every problem met, for logging. A card without
    /// usable art is left out (Wallet needs art for an entry); art that misses Apple's guidelines
    /// is still used, and reported.
    @discardableResult
    func publish(_ cards: [WalletCard], account: ExtensionAccount.ID, now: Date = Date()) async -> [ProvisioError] {
        var problems: [ProvisioError] = []
        var offered: [WalletCard] = []
        for card in cards {
            let reference = "\(card.id).png"
            guard let art = await art(for: card, problems: &problems) else { continue }
            do {
                try storage.saveArt(art, named: reference)
            } catch {
                problems.append(Self.provisioError(error))
                continue
            }
            var published = card
            published.artReference = reference
            offered.append(published)
        }
        let configuration = ExtensionConfiguration(
            accounts: [ExtensionAccount(issuerID: account.issuerID, consumerID: account.consumerID, cards: offered)],
            savedAt: now)
        let invalid = configuration.problems()
        guard invalid.isEmpty else { return problems + invalid }
        do {
            try storage.save(configuration)
        } catch {
            problems.append(Self.provisioError(error))
        }
        return problems
    }

    /// Signed out: no cards for Wallet to offer (the extension then reports no entries).
    func clear(now: Date = Date()) throws {
        try storage.save(ExtensionConfiguration(accounts: [], savedAt: now))
    }

    private func art(for card: WalletCard, problems: inout [ProvisioError]) async -> Data? {
        var candidate: Data?
        if let text = card.cardArtURL, let url = URL(string: text) {
            do {
                candidate = try await fetchArt(url)
            } catch {
                problems.append(ProvisioError(.cardArtNotPNG, "The art of card \(card.id) could not be downloaded."))
            }
        }
        if let data = candidate {
            let found = CardArtCheck.problems(in: data)
            problems += found.map(\.error)
            if !found.contains(where: { $0.code == .cardArtNotPNG }) { return data }
        }
        return fallbackArt
    }

    /// GET through ProvisioClient's session, which follows no redirect (URLSession;
    /// FoundationNetworking on Linux).
    static let download: @Sendable (URL) async throws -> Data = { url in
        let (data, response) = try await ProvisioMobileClient.noRedirectSession.data(
            for: URLRequest(url: url, timeoutInterval: 10))
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            throw URLError(.badServerResponse)
        }
        return data
    }

    static func provisioError(_ error: any Error) -> ProvisioError {
        error as? ProvisioError ?? ProvisioError(.appGroupUnavailable, "The App Group could not be written (\(type(of: error))).")
    }
}
