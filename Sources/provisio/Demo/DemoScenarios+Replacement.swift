import Foundation
import ProvisioAPI
import ProvisioSandbox

extension DemoScenarios {
    /// The number a lost card is replaced with, and its last four digits.
    static let replacementPAN = "4000987654321017"

    // MARK: 20

    /// A lost card, locked, is replaced with a new number: the card keeps its id and its token,
    /// the network funds the token by the new card, and the iPhone keeps its pass (same device
    /// account id) now showing the new last four digits. An add to the Watch afterwards sends the
    /// network the new number, and Provisio finds the card by it.
    func replacedCardKeepsItsPasses() async throws {
        let card = try await world.createCard(
            customer: "rosa", pan: "4000123456789017", name: "Rosa Replaced", title: "Demo Visa Everyday")
        let session = try await world.mobileSession(customer: "rosa")
        let (_, added) = try await world.add(card: card, on: .phone, mobileToken: session)
        guard case .success(let outcome) = added, let pass = outcome.pass else {
            await transcript.fail("the add to the iPhone failed: \(Self.describe(added))")
            return
        }
        let newLast4 = String(Self.replacementPAN.suffix(4))
        // Lost: the issuer locks the card at once, then replaces it.
        _ = try? await world.issuer.lockCard(path: .init(id: card.id)).ok
        let replaced: Components.Schemas.Card?
        do {
            replaced = try await world.issuer.replaceCard(
                path: .init(id: card.id), body: .json(.init(pan: Self.replacementPAN, expiryMonth: 9, expiryYear: 2031))
            ).ok.body.json
        } catch {
            await transcript.fail("the replacement was refused: \(DemoAPI.code(of: error))")
            return
        }
        let told = replaced?.tokenUpdates?.filter { $0.outcome == .updated }.count ?? 0
        let failed = replaced?.tokenUpdates?.compactMap(\.errorCode?.rawValue) ?? []
        await transcript.check(
            replaced?.id == card.id && replaced?.last4 == newLast4 && replaced?.status == .locked && told == 1
                && replaced?.primaryAccountIdentifier == card.primaryAccountIdentifier,
            "rosa's lost card, locked, is replaced with a new number: the same card, now •••• \(newLast4), still locked; "
                + "\(told) token told at the network (its funding account changed)"
                + (failed.isEmpty ? "" : "; failed: \(failed.joined(separator: ", "))"))
        let after = try await world.pass(serialNumber: pass.serialNumber)
        await transcript.check(
            after?.deviceAccountIdentifier == pass.deviceAccountIdentifier && after?.primaryAccountNumberSuffix == newLast4,
            "the iPhone keeps its pass (device account id \(pass.deviceAccountIdentifier.prefix(8))…), "
                + "now showing •••• \(after?.primaryAccountNumberSuffix ?? "?") instead of •••• \(pass.primaryAccountNumberSuffix)"
        )
        // The new card arrives: unlocked, and added to the Watch under its new number.
        let unlocked = try? await world.issuer.unlockCard(path: .init(id: card.id)).ok.body.json
        let (_, watch) = try await world.add(card: card, on: .watch, mobileToken: session)
        guard case .success(let watchOutcome) = watch else {
            await transcript.fail("the add to the Watch failed: \(Self.describe(watch))")
            return
        }
        await transcript.check(
            unlocked?.status == .active && watchOutcome.decision == .approve
                && watchOutcome.pass?.primaryAccountNumberSuffix == newLast4,
            "unlocked; an add to the Watch sends the network the new number and Provisio finds the card by it: "
                + "\(watchOutcome.decision.rawValue), pass •••• \(watchOutcome.pass?.primaryAccountNumberSuffix ?? "?")")
        // Closed at the end, so another run against the same server may replace to this number.
        _ = try? await world.issuer.closeCard(path: .init(id: card.id)).ok
    }
}
