#if os(Linux)
    import Foundation
    import ProvisioProcess

    /// Runs swift-symbolgraph-extract on the built PassKitStandIn module and reads its public
    /// declarations (synthesized conformance members left out).
    enum StandInSymbolGraph {
        struct ExtractionError: Error, CustomStringConvertible {
            let description: String
        }

        /// The module's symbols, extracted once per test run.
        static let symbols = Task<Result<[StandInSymbol], ExtractionError>, Never> {
            do {
                return .success(try await extract())
            } catch {
                return .failure(error as? ExtractionError ?? ExtractionError(description: "\(error)"))
            }
        }

        static func extract() async throws -> [StandInSymbol] {
            guard let tool = extractor() else {
                throw ExtractionError(
                    description: """
                        swift-symbolgraph-extract was not found next to `swift` on PATH or at \
                        $SWIFT_SYMBOLGRAPH_EXTRACT; it ships with every Swift toolchain (usr/bin).
                        """)
            }
            guard let modules = modulesDirectory() else {
                throw ExtractionError(
                    description: "PassKitStandIn.swiftmodule was not found; build the tests first (swift build --build-tests).")
            }
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("standin-symbols-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: output) }
            let extraction = try await ChildProcess.run(
                tool.path,
                arguments: [
                    "-module-name", "PassKitStandIn", "-I", modules.path, "-target", targetTriple, "-output-dir", output.path,
                    "-minimum-access-level", "public", "-module-cache-path", output.appendingPathComponent("cache").path,
                ])
            guard extraction.status == 0 else {
                throw ExtractionError(description: "\(tool.path) failed (\(extraction.termination)): \(extraction.standardError)")
            }
            let files = try FileManager.default.contentsOfDirectory(at: output, includingPropertiesForKeys: nil)
                .filter { $0.lastPathComponent.hasPrefix("PassKitStandIn") && $0.pathExtension == "json" }
            guard !files.isEmpty else { throw ExtractionError(description: "no symbol graph was written to \(output.path)") }
            return try parse(files.map { try Data(contentsOf: $0) })
        }

        /// The symbol graph files (the module's own and one per extended module) as symbols.
        static func parse(_ graphs: [Data]) throws -> [StandInSymbol] {
            let decoded = try graphs.map { try JSONDecoder().decode(Graph.self, from: $0) }
            let names = Dictionary(
                decoded.flatMap(\.symbols).map { ($0.identifier.precise, $0.pathComponents.joined(separator: ".")) },
                uniquingKeysWith: { first, _ in first })
            var sendable: Set<String> = []
            var superclasses: [String: String] = [:]
            for relationship in decoded.flatMap(\.relationships) {
                switch relationship.kind {
                case "conformsTo" where relationship.target == "s:s8SendableP" || relationship.targetFallback == "Swift.Sendable":
                    sendable.insert(relationship.source)
                case "inheritsFrom":
                    let name = names[relationship.target] ?? relationship.targetFallback ?? relationship.target
                    superclasses[relationship.source] = name.split(separator: ".").last.map(String.init)
                default: break
                }
            }
            return decoded.flatMap(\.symbols).filter { !$0.identifier.precise.contains("::SYNTHESIZED::") }.map { symbol in
                StandInSymbol(
                    pathComponents: symbol.pathComponents, kind: symbol.kind.identifier,
                    declaration: (symbol.declarationFragments ?? []).map(\.spelling).joined(),
                    ios: symbol.availability?.first { $0.domain == "iOS" }?.introduced?.text,
                    conformsToSendable: sendable.contains(symbol.identifier.precise),
                    superclass: superclasses[symbol.identifier.precise])
            }
        }

        /// `swift-symbolgraph-extract`: $SWIFT_SYMBOLGRAPH_EXTRACT, else next to the `swift` (or
        /// itself) on PATH, following symlinks to the toolchain.
        static func extractor() -> URL? {
            let environment = ProcessInfo.processInfo.environment
            if let explicit = environment["SWIFT_SYMBOLGRAPH_EXTRACT"], FileManager.default.isExecutableFile(atPath: explicit) {
                return URL(fileURLWithPath: explicit)
            }
            for directory in (environment["PATH"] ?? "").split(separator: ":").map(String.init) {
                let direct = URL(fileURLWithPath: directory).appendingPathComponent("swift-symbolgraph-extract")
                if FileManager.default.isExecutableFile(atPath: direct.path) { return direct }
                let swift = URL(fileURLWithPath: directory).appendingPathComponent("swift")
                guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
                let beside = swift.resolvingSymlinksInPath().deletingLastPathComponent()
                    .appendingPathComponent("swift-symbolgraph-extract")
                if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
            }
            return nil
        }

        /// The build's Modules directory: beside the running test bundle, else .build/debug.
        static func modulesDirectory() -> URL? {
            var candidates: [URL] = []
            if let executable = Bundle.main.executableURL {
                candidates.append(executable.deletingLastPathComponent().appendingPathComponent("Modules"))
            }
            candidates.append(AppleDeclarationManifest.packageRoot.appendingPathComponent(".build/debug/Modules"))
            return candidates.first {
                FileManager.default.fileExists(atPath: $0.appendingPathComponent("PassKitStandIn.swiftmodule").path)
            }
        }

        static var targetTriple: String {
            #if arch(x86_64)
                "x86_64-unknown-linux-gnu"
            #elseif arch(arm64)
                "aarch64-unknown-linux-gnu"
            #else
                #error("Add this architecture's Linux target triple.")
            #endif
        }

        private struct Graph: Decodable {
            let symbols: [Symbol]
            let relationships: [Relationship]
        }

        private struct Symbol: Decodable {
            struct Identifier: Decodable { let precise: String }
            struct Kind: Decodable { let identifier: String }
            struct Fragment: Decodable { let spelling: String }
            struct Availability: Decodable {
                struct Version: Decodable {
                    let major: Int
                    let minor: Int?
                    let patch: Int?
                    var text: String {
                        [major, minor ?? 0].map(String.init).joined(separator: ".") + (patch.map { ".\($0)" } ?? "")
                    }
                }
                let domain: String?
                let introduced: Version?
            }
            let identifier: Identifier
            let kind: Kind
            let pathComponents: [String]
            let declarationFragments: [Fragment]?
            let availability: [Availability]?
        }

        private struct Relationship: Decodable {
            let kind: String
            let source: String
            let target: String
            let targetFallback: String?
        }
    }
#endif
