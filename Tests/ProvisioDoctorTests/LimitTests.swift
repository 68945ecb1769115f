import Foundation
import ProvisioDoctor
import Testing

/// Every bound in `DoctorLimits` holds, and going over one is reported, never silently partial.
@Suite struct LimitTests {
    func limits(_ change: (inout DoctorLimits) -> Void) -> DoctorLimits {
        var limits = DoctorLimits()
        change(&limits)
        return limits
    }

    @Test func anOversizedPropertyListIsReportedNotRead() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        let file = "NonUIExtension/NonUIExtension.entitlements"
        let padded = try Data(contentsOf: URL(fileURLWithPath: copy.path(file))) + Data(repeating: 0x0A, count: 5000)
        try copy.write(file, padded)
        let report = try Doctor(limits: limits { $0.maximumPlistBytes = 4096 }).examine(copy.root)
        #expect(report.findings.map(\.code) == [.fileTooLarge])
        #expect(report.findings.first?.file == file)
        #expect(try Doctor().examine(copy.root).findings == [])
    }

    @Test func anOversizedProjectFileIsUnusableInput() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        try ProjectFixtures.writeProject(in: copy.root)
        #expect(throws: DoctorError.self) { try Doctor(limits: limits { $0.maximumProjectFileBytes = 1000 }).examine(copy.root) }
        do {
            _ = try Doctor(limits: limits { $0.maximumProjectFileBytes = 1000 }).examine(copy.root)
        } catch {
            #expect(error.code == .inputTooLarge)
        }
    }

    @Test func tooManyEntriesIsUnusableInput() throws {
        do {
            _ = try Doctor(limits: limits { $0.maximumEntries = 10 }).examine(ExampleCopy.example)
            Issue.record("expected inputTooLarge")
        } catch {
            #expect(error.code == .inputTooLarge)
        }
    }

    @Test func foldersDeeperThanTheLimitAreNotEnteredAndSaySo() throws {
        // Depth 1 reaches App/Info.plist but not App/Assets.xcassets/DefaultCardArt.dataset/.
        let report = try Doctor(limits: limits { $0.maximumDepth = 1 }).examine(ExampleCopy.example)
        #expect(report.findings.map(\.code) == [.cardArtMissing])
        #expect(report.notes.contains { $0.contains("deeper than 1 levels") })
        // Depth 0 reaches no Info.plist at all.
        do {
            _ = try Doctor(limits: limits { $0.maximumDepth = 0 }).examine(ExampleCopy.example)
            Issue.record("expected inputUnsupported")
        } catch {
            #expect(error.code == .inputUnsupported)
        }
    }

    @Test func oversizedSourcesAreSkippedWithANote() throws {
        let report = try Doctor(limits: limits { $0.maximumSourceFileBytes = 100 }).examine(ExampleCopy.example)
        #expect(Set(report.findings.map(\.code)) == [.principalClassNotFound])
        #expect(report.notes.contains { $0.contains("over 100 bytes were not searched") })
    }

    @Test func theClassChainIsFollowedOnlySoFar() throws {
        // AuthorizationViewController → WalletAuthorizationViewController → (the protocol):
        // one level does not reach the protocol, which the doctor then says it did not verify.
        let report = try Doctor(limits: limits { $0.maximumClassChain = 1 }).examine(ExampleCopy.example)
        #expect(report.findings == [])
        #expect(
            report.notes.contains { $0.contains("AuthorizationViewController inherits from WalletAuthorizationViewController") })
    }

    @Test func cardArtOverTheReadLimitIsOnlySized() throws {
        let report = try Doctor(limits: limits { $0.maximumCardArtBytes = 1000 }).examine(ExampleCopy.example)
        #expect(report.findings == [])
        #expect(report.notes.contains { $0.contains("corners were not inspected") })
    }

    @Test func cardArtOverThePixelLimitIsNotDecoded() throws {
        let report = try Doctor(limits: limits { $0.maximumPixels = 1_000_000 }).examine(ExampleCopy.example)
        #expect(report.findings.map(\.code) == [.cardArtUnreadable])
        #expect(report.findings.first?.severity == .warning)
        #expect(report.findings.first?.message.contains("1000000 pixels") == true)
    }

    @Test func anOversizedExecutableIsNotRead() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        let app = copy.base + "/Example.app"
        try ProjectFixtures.writeApp(from: copy, at: app)
        let report = try Doctor(limits: limits { $0.maximumExecutableBytes = 1024 }).examine(app)
        #expect(report.findings.map(\.code) == [.fileTooLarge, .fileTooLarge, .fileTooLarge])
        #expect(report.findings.allSatisfy { $0.severity == .warning })
    }
}
