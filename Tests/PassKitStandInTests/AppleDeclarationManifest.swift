#if os(Linux)
    import Foundation

    /// AppleDeclarations.json: Apple's declarations of what ProvisioKit and the example use, each
    /// with its sources (see the file's `about`).
    struct AppleDeclarationManifest: Decodable, Sendable {
        struct Source: Decodable, Sendable {
            let repository: String
            let what: String
        }

        struct Entry: Decodable, Sendable {
            let symbol: String
            let declaration: String
            /// The iOS version of the applicable `@available`, nil when Apple's SDK has none.
            let ios: String?
            let isolation: String?
            let sendable: Bool?
            let inherits: String?
            let standIn: Bool?
            let sources: [String]
            let note: String?

            /// Whether the stand-in must declare it (false: only Xcode-compiled example files use it).
            var isInStandIn: Bool { standIn ?? true }
        }

        struct OutOfScope: Decodable, Sendable {
            let name: String
            let reason: String
        }

        let about: [String]
        let normalisations: [String]
        let sources: [Source]
        let outOfScope: [OutOfScope]
        let entries: [Entry]

        /// The package root, from this file's place in it (tests run from a checkout).
        static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        static let file = packageRoot.appendingPathComponent("Tests/PassKitStandInTests/AppleDeclarations.json")

        static func load() throws -> AppleDeclarationManifest {
            try JSONDecoder().decode(AppleDeclarationManifest.self, from: Data(contentsOf: file))
        }

        /// Problems with the manifest itself: every entry names Apple's page and a cited repository
        /// file, appears once, and keeps isolation out of its declaration.
        func problems() -> [String] {
            let repositories = Set(sources.map(\.repository))
            var problems: [String] = []
            var seen: Set<String> = []
            for entry in entries {
                if !seen.insert(entry.symbol).inserted { problems.append("\(entry.symbol): listed twice") }
                if !(entry.sources.first?.hasPrefix("https://developer.apple.com/documentation/") ?? false) {
                    problems.append("\(entry.symbol): the first source must be Apple's documentation page")
                }
                let cited = entry.sources.dropFirst().compactMap { $0.split(separator: ":", maxSplits: 1).first.map(String.init) }
                if cited.isEmpty { problems.append("\(entry.symbol): no repository source besides Apple's page") }
                for repository in cited where !repositories.contains(repository) {
                    problems.append("\(entry.symbol): source repository \(repository) is not in `sources`")
                }
                if entry.declaration.hasPrefix("@") {
                    problems.append("\(entry.symbol): put attributes such as @MainActor in `isolation`")
                }
                if let ios = entry.ios, DeclarationComparison.version(ios) == nil {
                    problems.append("\(entry.symbol): ios \"\(ios)\" is not a version")
                }
            }
            return problems
        }
    }
#endif
