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

        @Test func theStandInDeclaresExactlyWhatAppleDeclares() throws {
            let manifest = try Self.manifest.get()
            let symbols = try StandInSymbolGraph.symbols.get()
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
