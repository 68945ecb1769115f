import Foundation
import Testing

@testable import ProvisioDoctor

/// Reading class declarations well enough to follow a principal class.
@Suite struct SourceIndexTests {
    func index(_ files: [String: String]) throws -> SourceIndex {
        let folder = NSTemporaryDirectory() + "provisio-sources-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var paths: [String] = []
        for (name, text) in files {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
            paths.append(folder + "/" + name)
        }
        return SourceIndex(files: paths, maximumFileBytes: 1 << 20)
    }

    @Test func readsSwiftClassesExtensionsAndObjectiveC() throws {
        let index = try index([
            "A.swift": """
            // class Commented: NSObject {}
            /* class AlsoCommented: NSObject { /* nested */ } */
            @MainActor
            open class Base<T>: UIViewController, @preconcurrency PassKit.PKIssuerProvisioningExtensionAuthorizationProviding where T: Sendable {
            }
            @objc(Handler) final class Handler: ProvisioWalletExtensionHandler, @unchecked Sendable {}
            final class Later: NSObject {}
            extension Later: PKIssuerProvisioningExtensionAuthorizationProviding {}
            """,
            "B.h": "@interface LegacyHandler : PKIssuerProvisioningExtensionHandler <NSCopying>\n@end",
        ])
        #expect(index.declarations(of: "Commented").isEmpty && index.declarations(of: "AlsoCommented").isEmpty)
        #expect(
            index.declarations(of: "Base").first?.inherits == [
                "UIViewController", "PKIssuerProvisioningExtensionAuthorizationProviding",
            ])
        #expect(index.declarations(of: "Handler").first?.objectiveCName == "Handler")
        #expect(
            index.ancestry(of: "Later", maximumChain: 8).types.contains("PKIssuerProvisioningExtensionAuthorizationProviding"))
        let legacy = try #require(index.declarations(of: "LegacyHandler").first)
        #expect(!legacy.isSwift && legacy.inherits == ["PKIssuerProvisioningExtensionHandler", "NSCopying"])
    }

    @Test func ancestryStopsAtCyclesAndTheLimit() throws {
        let index = try index(["C.swift": "class A: B {}\nclass B: A {}\nclass C: D {}\nclass D: E {}\nclass E: NSObject {}"])
        #expect(index.ancestry(of: "A", maximumChain: 10).end == "A")
        #expect(index.ancestry(of: "C", maximumChain: 10).end == "NSObject")
        #expect(index.ancestry(of: "C", maximumChain: 2).end == "E")
    }
}
