#if os(Linux)
    import Foundation
    import Testing

    /// The stand-in against Apple's declarations (AppleDeclarations.json): the symbol graph of the
    /// built PassKitStandIn module must match every entry exactly and declare nothing else of
    /// Apple's types. This checks the stand-in's declarations; it does not compile ProvisioKit
    /// against the real SDK.
    @Suite struct AppleDeclarationTests {
        static let manifest = Result { try AppleDeclarationManifest.load() }

        @Test func theManifestNamesItsSources() throws {
            let manifest = try Self.manifest.get()
            #expect(manifest.problems() == [])
            #expect(manifest.entries.count > 100)
            let cited = Set(manifest.entries.flatMap { $0.sources.dropFirst() })
            #expect(manifest.sources.count >= 3 && cited.count > 20, "\(manifest.sources.map(\.repository))")
        }

        @Test func theStandInDeclaresExactlyWhatAppleDeclares() async throws {
            let manifest = try Self.manifest.get()
            let symbols = try await StandInSymbolGraph.symbols.value.get()
            let mismatches = DeclarationComparison.compare(manifest, symbols)
            for mismatch in mismatches {
                Issue.record("\(mismatch) (see Tests/PassKitStandInTests/AppleDeclarations.json)")
            }
            // The graph really is the stand-in's: the entries it must declare are all there.
            #expect(symbols.count >= manifest.entries.filter(\.isInStandIn).count)
        }

        @Test func everyFrameworkNameTheSDKAndTheExampleUseIsInTheManifest() throws {
            let manifest = try Self.manifest.get()
            var known = Set(manifest.outOfScope.map(\.name))
            for entry in manifest.entries {
                let components = entry.symbol.split(separator: ".").map(String.init)
                known.formUnion(components.map { String($0.prefix { $0 != "(" }) })
            }
            let used = try FrameworkNameScanner.names(
                inSwiftFilesUnder: ["Sources/ProvisioKit", "Examples/IssuerApp"], root: AppleDeclarationManifest.packageRoot)
            #expect(used.count > 20, "the scan found \(used.count) names")
            for (name, files) in used.sorted(by: { $0.key < $1.key }) where !known.contains(name) {
                Issue.record(
                    "\(name) (used in \(files.sorted().joined(separator: ", "))) is neither in AppleDeclarations.json nor outOfScope"
                )
            }
        }

        /// No PassKit, UIKit, Core Graphics or LocalAuthentication API that ProvisioKit or the
        /// Linux-built example files use is newer than the package's iOS platform (Package.swift's
        /// `.iOS(.vN)`): the Apple half of the deployment floor (IOSDeploymentFloorTests in
        /// ProvisioCoreTests checks Swift's and Foundation's). Declarations only the Xcode-built app
        /// screens use (`standIn: false`) may be as new as the app's iOS 17.
        @Test func everyAppleAPIUsedIsAvailableAtThePackagesIOSFloor() throws {
            let manifest = try Self.manifest.get()
            let package = try String(
                contentsOf: AppleDeclarationManifest.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
            let platform = try #require(package.firstRange(of: #/\.iOS\(\.v(\d+)\)/#))
            let floor = try #require(Int(package[platform].dropFirst(".iOS(.v".count).dropLast()))
            #expect(floor == 14)
            /// "13.4" as [13, 4]; no availability as [0].
            func version(_ text: String?) -> [Int] { text.map { $0.split(separator: ".").compactMap { Int($0) } } ?? [0] }
            for entry in manifest.entries {
                let limit = entry.isInStandIn ? floor : 17
                // At most limit.0: [14, 0] and [13, 4] come before [14, 0, 1]; [14, 5] and [15, 0] do not.
                if !version(entry.ios).lexicographicallyPrecedes([limit, 0, 1]) {
                    Issue.record("\(entry.symbol) needs iOS \(entry.ios ?? "?"), above iOS \(limit).0")
                }
            }
            // The Wallet extension API is what sets the floor.
            let walletExtension = manifest.entries.filter { $0.symbol.hasPrefix("PKIssuerProvisioningExtension") }
            #expect(!walletExtension.isEmpty && walletExtension.allSatisfy { version($0.ios) == [floor, 0] })
        }

        @Test func normalisationIsOnlyWhatTheManifestDocuments() {
            func normalized(_ declaration: String, _ kind: String) -> String {
                let (text, isolation) = DeclarationComparison.normalized(
                    StandInSymbol(pathComponents: ["T"], kind: kind, declaration: declaration))
                return (isolation.map { "[\($0)] " } ?? "") + text
            }
            #expect(normalized("let identifier: String", "swift.property") == "var identifier: String { get }")
            #expect(
                normalized("@MainActor weak var delegate: (any D)?", "swift.property")
                    == "[MainActor] weak var delegate: (any D)? { get set }")
            #expect(normalized("var x: Int { get }", "swift.property") == "var x: Int { get }")
            #expect(normalized("static let ECC_V2: S", "swift.type.property") == "static let ECC_V2: S")
            #expect(normalized("let PKPassKitErrorDomain: String", "swift.var") == "let PKPassKitErrorDomain: String")
            #expect(normalized("override init()", "swift.init") == "init()")
            #expect(normalized("final class CGImage", "swift.class") == "class CGImage")
            #expect(normalized("func f(completion: @escaping @Sendable () -> Void)", "swift.method").contains("@Sendable"))
            #expect(
                normalized("typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?", "swift.typealias")
                    == "typealias NSErrorPointer = AutoreleasingUnsafeMutablePointer<NSError?>?")
            #expect(
                normalized("func f(_ p: UnsafeMutablePointer<Int>)", "swift.method") == "func f(_ p: UnsafeMutablePointer<Int>)")
        }
    }
#endif
