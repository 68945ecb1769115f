#if os(Linux)
    import Foundation

    /// Compares the stand-in's symbols with Apple's declarations in the manifest, after the
    /// manifest's documented normalisations only.
    enum DeclarationComparison {
        struct Mismatch: Sendable, Equatable, CustomStringConvertible {
            enum Kind: String, Sendable {
                /// The manifest lists it; the stand-in does not declare it.
                case missing
                case declaration, availability, isolation, sendable, superclass
                /// The stand-in declares public API of an Apple type that the manifest lacks.
                case unexpected
                /// Only Xcode-compiled example files use it, yet the stand-in declares it.
                case notInStandIn
            }

            let kind: Kind
            let symbol: String
            let detail: String

            var description: String { "\(symbol) [\(kind.rawValue)]: \(detail)" }
        }

        /// Every difference between `symbols` and `manifest`, in manifest order, then extras.
        static func compare(_ manifest: AppleDeclarationManifest, _ symbols: [StandInSymbol]) -> [Mismatch] {
            let byPath = Dictionary(grouping: symbols, by: \.path)
            var mismatches: [Mismatch] = []
            for entry in manifest.entries {
                let found = byPath[entry.symbol] ?? []
                guard entry.isInStandIn else {
                    if !found.isEmpty {
                        mismatches.append(
                            Mismatch(
                                kind: .notInStandIn, symbol: entry.symbol,
                                detail: "the manifest marks it standIn: false, but the stand-in declares it; compare it instead"))
                    }
                    continue
                }
                guard !found.isEmpty else {
                    mismatches.append(Mismatch(kind: .missing, symbol: entry.symbol, detail: "Apple: \(entry.declaration)"))
                    continue
                }
                mismatches += compare(entry, found, all: byPath)
            }
            let listed = Set(manifest.entries.map(\.symbol))
            for (path, found) in byPath.sorted(by: { $0.key < $1.key }) where !listed.contains(path) {
                guard let symbol = found.first, !isStandInOwn(symbol) else { continue }
                mismatches.append(
                    Mismatch(
                        kind: .unexpected, symbol: path,
                        detail: "the stand-in declares `\(symbol.declaration)`, which is not in AppleDeclarations.json"))
            }
            return mismatches
        }

        private static func compare(
            _ entry: AppleDeclarationManifest.Entry, _ found: [StandInSymbol], all: [String: [StandInSymbol]]
        ) -> [Mismatch] {
            var mismatches: [Mismatch] = []
            let apple = collapsed(entry.declaration)
            // A protocol requirement and its default implementation share a path: all must match.
            for symbol in found {
                let (declaration, isolation) = normalized(symbol)
                if declaration != apple {
                    mismatches.append(
                        Mismatch(
                            kind: .declaration, symbol: entry.symbol, detail: "Apple: `\(apple)`; stand-in: `\(declaration)`"))
                }
                if isolation != entry.isolation {
                    mismatches.append(
                        Mismatch(
                            kind: .isolation, symbol: entry.symbol,
                            detail: "Apple: \(entry.isolation ?? "nonisolated"); stand-in: \(isolation ?? "nonisolated")"))
                }
                let available = effectiveIOS(symbol, all: all)
                if version(available ?? "") != version(entry.ios ?? "") {
                    mismatches.append(
                        Mismatch(
                            kind: .availability, symbol: entry.symbol,
                            detail: "Apple: \(entry.ios.map { "iOS \($0)" } ?? "no @available"); stand-in: "
                                + (available.map { "iOS \($0)" } ?? "no @available")))
                }
                if let sendable = entry.sendable, sendable != symbol.conformsToSendable {
                    mismatches.append(
                        Mismatch(
                            kind: .sendable, symbol: entry.symbol,
                            detail: "Apple: \(sendable ? "Sendable" : "not Sendable"); stand-in: "
                                + (symbol.conformsToSendable ? "Sendable" : "not Sendable")))
                }
                if let superclass = entry.inherits, superclass != symbol.superclass {
                    mismatches.append(
                        Mismatch(
                            kind: .superclass, symbol: entry.symbol,
                            detail: "Apple: inherits \(superclass); stand-in: \(symbol.superclass ?? "nothing")"))
                }
            }
            return deduplicated(mismatches)
        }

        /// One report per difference, however many symbols share the path.
        private static func deduplicated(_ mismatches: [Mismatch]) -> [Mismatch] {
            var seen: Set<String> = []
            return mismatches.filter { seen.insert($0.description).inserted }
        }

        /// The stand-in's own plumbing (`PassKitStandIn*` types), which is not Apple's API.
        static func isStandInOwn(_ symbol: StandInSymbol) -> Bool {
            symbol.pathComponents.first?.hasPrefix("PassKitStandIn") ?? false
        }

        /// The symbol's own iOS availability, else its nearest enclosing symbol's.
        static func effectiveIOS(_ symbol: StandInSymbol, all: [String: [StandInSymbol]]) -> String? {
            if let ios = symbol.ios { return ios }
            var components = symbol.pathComponents.dropLast()
            while !components.isEmpty {
                if let ios = all[components.joined(separator: ".")]?.compactMap(\.ios).first { return ios }
                components = components.dropLast()
            }
            return nil
        }

        /// The documented normalisations (AppleDeclarations.json `normalisations`): the declaration
        /// as Apple prints it, and the isolation attribute taken off it.
        static func normalized(_ symbol: StandInSymbol) -> (declaration: String, isolation: String?) {
            var text = collapsed(symbol.declaration)
            var isolation: String?
            if text.hasPrefix("@MainActor ") {
                isolation = "MainActor"
                text.removeFirst("@MainActor ".count)
            }
            if text.hasPrefix("override ") { text.removeFirst("override ".count) }
            if symbol.kind == "swift.class", text.hasPrefix("final class ") { text.removeFirst("final ".count) }
            if symbol.kind == "swift.typealias" {
                text = text.replacingOccurrences(of: "= UnsafeMutablePointer<", with: "= AutoreleasingUnsafeMutablePointer<")
            }
            if symbol.kind == "swift.property" {
                if text.hasPrefix("let ") {
                    text = "var " + text.dropFirst("let ".count) + " { get }"
                } else if !text.hasSuffix("}") {
                    text += " { get set }"
                }
            }
            return (text, isolation)
        }

        static func collapsed(_ text: String) -> String {
            text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }

        /// "13.4" → [13, 4]; "9" and "9.0" are equal; nil for anything else.
        static func version(_ text: String) -> [Int]? {
            let parts = text.split(separator: ".").map { Int($0) }
            guard !parts.isEmpty, !parts.contains(nil) else { return text.isEmpty ? [] : nil }
            var numbers = parts.compactMap { $0 }
            while numbers.count > 1, numbers.last == 0 { numbers.removeLast() }
            return numbers
        }
    }
#endif
