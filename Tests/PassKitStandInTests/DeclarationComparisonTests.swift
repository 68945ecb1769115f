#if os(Linux)
    import Foundation
    import Testing

    /// The comparison can fail: each kind of drift from Apple's declaration is reported.
    @Suite struct DeclarationComparisonTests {
        /// A deliberate drift from Apple's declaration, and the report it must produce.
        enum Alteration: String, CaseIterable, Sendable {
            case droppedSendable, changedLabel, droppedOptional, droppedAvailability, droppedIsolation, lostSendable
            case otherSuperclass, extraAPI, missingAPI, exampleOnlyAPI

            var expected: (kind: DeclarationComparison.Mismatch.Kind, symbol: String) {
                switch self {
                case .droppedSendable: (.declaration, "PKIssuerProvisioningExtensionHandler.status(completion:)")
                case .changedLabel: (.declaration, "PKPassLibrary.canAddSecureElementPass(primaryAccountIdentifier:)")
                case .droppedOptional: (.declaration, "PKAddPaymentPassRequest.encryptedPassData")
                case .droppedAvailability: (.availability, "PKIssuerProvisioningExtensionHandler")
                case .droppedIsolation: (.isolation, "UIViewController.present(_:animated:completion:)")
                case .lostSendable: (.sendable, "CGImage")
                case .otherSuperclass: (.superclass, "UIViewController")
                case .extraAPI: (.unexpected, "PKPassLibrary.removeAllPasses()")
                case .missingAPI: (.missing, "PKPassLibrary.passes(of:)")
                case .exampleOnlyAPI: (.notInStandIn, "PKAddPassButton")
                }
            }

            func apply(to symbols: [StandInSymbol]) -> [StandInSymbol] {
                var symbols = symbols
                func edit(_ path: String, _ change: (inout StandInSymbol) -> Void) {
                    for index in symbols.indices where symbols[index].path == path { change(&symbols[index]) }
                }
                switch self {
                case .droppedSendable:
                    edit(expected.symbol) { $0.declaration = $0.declaration.replacingOccurrences(of: "@Sendable ", with: "") }
                case .changedLabel:
                    edit(expected.symbol) {
                        $0.declaration = $0.declaration.replacingOccurrences(
                            of: "(primaryAccountIdentifier:", with: "(_ primaryAccountIdentifier:")
                    }
                case .droppedOptional:
                    edit(expected.symbol) { $0.declaration = $0.declaration.replacingOccurrences(of: "Data?", with: "Data") }
                case .droppedAvailability:
                    edit(expected.symbol) { $0.ios = nil }
                case .droppedIsolation:
                    edit(expected.symbol) { $0.declaration = $0.declaration.replacingOccurrences(of: "@MainActor ", with: "") }
                case .lostSendable:
                    edit(expected.symbol) { $0.conformsToSendable = false }
                case .otherSuperclass:
                    edit(expected.symbol) { $0.superclass = "NSObject" }
                case .extraAPI:
                    symbols.append(
                        StandInSymbol(
                            pathComponents: ["PKPassLibrary", "removeAllPasses()"], kind: "swift.method",
                            declaration: "func removeAllPasses()", ios: "6.0"))
                case .missingAPI:
                    symbols.removeAll { $0.path == expected.symbol }
                case .exampleOnlyAPI:
                    symbols.append(
                        StandInSymbol(
                            pathComponents: ["PKAddPassButton"], kind: "swift.class", declaration: "class PKAddPassButton"))
                }
                return symbols
            }
        }

        /// A stand-in that declares exactly the manifest, built from it.
        static func faithful(to manifest: AppleDeclarationManifest) -> [StandInSymbol] {
            manifest.entries.filter(\.isInStandIn).map { entry in
                StandInSymbol(
                    pathComponents: entry.symbol.split(separator: ".").map(String.init), kind: "manifest",
                    declaration: (entry.isolation.map { "@\($0) " } ?? "") + entry.declaration, ios: entry.ios,
                    conformsToSendable: entry.sendable ?? false, superclass: entry.inherits)
            }
        }

        @Test func aFaithfulStandInPasses() throws {
            let manifest = try AppleDeclarationManifest.load()
            #expect(DeclarationComparison.compare(manifest, Self.faithful(to: manifest)) == [])
        }

        @Test(arguments: Alteration.allCases)
        func anAlteredDeclarationIsReported(_ alteration: Alteration) throws {
            let manifest = try AppleDeclarationManifest.load()
            let mismatches = DeclarationComparison.compare(manifest, alteration.apply(to: Self.faithful(to: manifest)))
            #expect(
                mismatches.contains { $0.kind == alteration.expected.kind && $0.symbol == alteration.expected.symbol },
                "\(mismatches)")
        }

        /// The same on the real symbol graph: a stand-in without Apple's @Sendable would fail CI.
        @Test func theRealGraphWithoutApplesSendableIsReported() async throws {
            let manifest = try AppleDeclarationManifest.load()
            let symbols = try await StandInSymbolGraph.symbols.value.get()
            let altered = Alteration.droppedSendable.apply(to: symbols)
            #expect(altered != symbols)
            #expect(
                DeclarationComparison.compare(manifest, altered).contains {
                    $0.kind == .declaration && $0.symbol == Alteration.droppedSendable.expected.symbol
                })
        }
    }
#endif
