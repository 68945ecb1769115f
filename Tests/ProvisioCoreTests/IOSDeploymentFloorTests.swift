import Foundation
import Testing

/// What an iOS app links (ProvisioCore, ProvisioClient and the generated ProvisioMobileAPI under
/// it, ProvisioKit) and the example's Wallet extensions use nothing of Swift's or Foundation's
/// newer than the package's iOS platform. Linux has no availability checking, so a `Duration`
/// compiles here and breaks only in Xcode for an iOS 14 target; this scan is what keeps the floor
/// from rising unnoticed. It knows only the symbols listed (the APIs a Swift 6 codebase reaches for
/// that are newer than iOS 14); Apple's frameworks are checked against AppleDeclarations.json
/// (`AppleDeclarationTests`).
@Suite struct IOSDeploymentFloorTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The sources built into an iOS app or Wallet extension at the package's floor.
    static let scannedFolders = [
        "Sources/ProvisioCore", "Sources/ProvisioClient", "Sources/ProvisioMobileAPI", "Sources/ProvisioKit",
        "Examples/IssuerApp/Shared", "Examples/IssuerApp/NonUIExtension", "Examples/IssuerApp/UIExtension",
    ]

    /// A symbol newer than iOS 14, the iOS version that introduced it, and what to use instead.
    struct NewerSymbol: Sendable {
        let pattern: String
        let ios: String
        let instead: String
    }

    static let newerSymbols: [NewerSymbol] = [
        .init(pattern: #"\bDuration\b"#, ios: "16", instead: "TimeInterval seconds (ProvisioCore's Seconds)"),
        .init(pattern: #"\b(DurationProtocol|InstantProtocol)\b"#, ios: "16", instead: "TimeInterval"),
        .init(pattern: #"\b(ContinuousClock|SuspendingClock)\b"#, ios: "16", instead: "Date or DispatchTime"),
        .init(pattern: #"\b(some|any)\s+Clock\b"#, ios: "16", instead: "Date or DispatchTime"),
        .init(pattern: #"\bsleep\((for|until):"#, ios: "16", instead: "Seconds.sleep / Task.sleep(nanoseconds:)"),
        .init(pattern: #"\.formatted\("#, ios: "15", instead: "a Formatter, or string interpolation"),
        .init(pattern: #"\b\w*FormatStyle\b"#, ios: "15", instead: "a Formatter"),
        .init(pattern: #"\.ISO8601Format\("#, ios: "15", instead: "ISO8601DateFormatter"),
        .init(pattern: #"\bDate\.now\b"#, ios: "15", instead: "Date()"),
        .init(pattern: #"\bAttributedString\b"#, ios: "15", instead: "NSAttributedString"),
        .init(pattern: #"String\(localized:"#, ios: "15", instead: "NSLocalizedString"),
        .init(
            pattern: #"\.(data|bytes|upload|download)\((for|from):"#, ios: "15",
            instead: "dataTask(with:completionHandler:) in a continuation"),
        .init(pattern: #"\b(Mutex|Atomic)\s*<|\bimport\s+Synchronization\b"#, ios: "18", instead: "ProvisioCore's Locked"),
        .init(pattern: #"#/|/#"#, ios: "16", instead: "hand-written parsing (regex literals need _StringProcessing)"),
        .init(pattern: #"\bRegex\s*[<(]"#, ios: "16", instead: "hand-written parsing"),
        .init(
            pattern: #"\.(wholeMatch|prefixMatch|firstMatch|firstRange|ranges|trimmingPrefix)\("#, ios: "16",
            instead: "Foundation's range(of:) or a loop"),
        .init(pattern: #"\.replacing\("#, ios: "16", instead: "replacingOccurrences(of:with:)"),
        .init(
            pattern: #"URL\(filePath:|\.appending\((path|component|components|queryItems):|\.path\(percentEncoded:"#,
            ios: "16", instead: "URL(fileURLWithPath:) / appendingPathComponent(_:)"),
        .init(
            pattern: #"\bURL\.(documentsDirectory|homeDirectory|temporaryDirectory|cachesDirectory)\b"#, ios: "16",
            instead: "FileManager"),
        .init(pattern: #"\bany\s+[A-Z][\w.]*\s*<"#, ios: "16", instead: "a generic or a type-erased wrapper"),
        .init(pattern: #"@isolated\(any\)"#, ios: "18", instead: "a plain @Sendable closure"),
        .init(pattern: #"\bwith(Throwing)?DiscardingTaskGroup\b"#, ios: "17", instead: "withTaskGroup"),
        .init(pattern: #"\bTask\.immediate\b|\bimmediate\(priority"#, ios: "26", instead: "Task { }"),
        .init(pattern: #"@Observable\b|\bimport\s+Observation\b"#, ios: "17", instead: "ObservableObject (app code only)"),
        .init(pattern: #"\b(InlineArray|RawSpan|MutableSpan)\b|\bSpan\s*<"#, ios: "26", instead: "Array / withUnsafeBytes"),
        .init(
            pattern: #"\bUIButton\.Configuration\b|\bUISheetPresentationController\b"#, ios: "15", instead: "UIKit's iOS 14 API"),
    ]

    /// A use of a newer symbol: file, line, the symbol's iOS version.
    struct Finding: Sendable, CustomStringConvertible {
        let file: String
        let line: Int
        let ios: String
        let text: String
        let instead: String

        var description: String { "\(file):\(line): iOS \(ios) API in `\(text)` — use \(instead)" }
    }

    /// The code of a Swift file without its comments and the text of its string literals (so
    /// documentation may name `Duration` and a message may say "#/"), line by line. Interpolations
    /// (`\(…)`) are code and kept. Raw strings' backslashes are taken as escapes (none of the
    /// scanned files has one).
    static func code(_ source: String) -> [String] {
        enum Mode { case code, blockComment, string, multilineString }
        var lines: [String] = []
        var current = ""
        var mode = Mode.code
        // Open interpolations: the string mode each returns to and its parenthesis depth.
        var interpolations: [(returnTo: Mode, depth: Int)] = []
        let characters = Array(source)
        var index = 0
        func at(_ offset: Int, _ text: String) -> Bool {
            let wanted = Array(text)
            guard index + offset + wanted.count <= characters.count else { return false }
            return Array(characters[(index + offset)..<(index + offset + wanted.count)]) == wanted
        }
        while index < characters.count {
            let character = characters[index]
            if character == "\n" {
                lines.append(current)
                current = ""
                if mode == .string { mode = .code }  // a single-line literal ends with its line
                index += 1
                continue
            }
            switch mode {
            case .blockComment:
                if at(0, "*/") {
                    mode = .code
                    index += 1
                }
            case .string, .multilineString:
                if at(0, "\\(") {
                    interpolations.append((mode, 1))
                    mode = .code
                    current += "("
                    index += 1
                } else if character == "\\" {
                    index += 1
                } else if mode == .multilineString && at(0, "\"\"\"") {
                    mode = .code
                    current += "\"\"\""
                    index += 2
                } else if mode == .string && character == "\"" {
                    mode = .code
                    current.append(character)
                }
            case .code:
                if at(0, "//") {
                    while index < characters.count && characters[index] != "\n" { index += 1 }
                    continue
                } else if at(0, "/*") {
                    mode = .blockComment
                    index += 1
                } else if at(0, "\"\"\"") {
                    mode = .multilineString
                    current += "\"\"\""
                    index += 2
                } else if character == "\"" {
                    mode = .string
                    current.append(character)
                } else {
                    current.append(character)
                    if !interpolations.isEmpty {
                        if character == "(" { interpolations[interpolations.count - 1].depth += 1 }
                        if character == ")" {
                            interpolations[interpolations.count - 1].depth -= 1
                            if interpolations[interpolations.count - 1].depth == 0 {
                                mode = interpolations.removeLast().returnTo
                            }
                        }
                    }
                }
            }
            index += 1
        }
        lines.append(current)
        return lines
    }

    static func findings(in source: String, file: String) throws -> [Finding] {
        let expressions = try newerSymbols.map { symbol in (symbol, try NSRegularExpression(pattern: symbol.pattern)) }
        var findings: [Finding] = []
        for (offset, line) in code(source).enumerated() {
            let range = NSRange(line.startIndex..., in: line)
            for (symbol, expression) in expressions where expression.firstMatch(in: line, range: range) != nil {
                findings.append(
                    Finding(
                        file: file, line: offset + 1, ios: symbol.ios, text: line.trimmingCharacters(in: .whitespaces),
                        instead: symbol.instead))
            }
        }
        return findings
    }

    static func swiftFiles(under folder: String) throws -> [String] {
        let root = packageRoot.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { "\(folder)/\($0)" }
    }

    /// The package's iOS platform, e.g. 14 for `.iOS(.v14)`.
    static func packageIOSFloor() throws -> Int? {
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let expression = try NSRegularExpression(pattern: #"\.iOS\(\.v(\d+)"#)
        guard let match = expression.firstMatch(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)),
            let range = Range(match.range(at: 1), in: manifest)
        else { return nil }
        return Int(manifest[range])
    }

    @Test func thePackagesIOSFloorIs14() throws {
        // Apple's Wallet extension API (PKIssuerProvisioningExtensionHandler and its types) starts at
        // iOS 14.0; nothing else ProvisioKit links needs more. Raising it needs a reason in README.md.
        #expect(try Self.packageIOSFloor() == 14)
    }

    @Test func theExampleExtensionsTargetTheFloorAndTheAppIOS17() throws {
        let spec = try String(
            contentsOf: Self.packageRoot.appendingPathComponent("Examples/IssuerApp/project.yml"), encoding: .utf8)
        let targets = try NSRegularExpression(pattern: #"(?m)^  (\w+):\n(?:    .*\n)*?    deploymentTarget: "([\d.]+)""#)
        var found: [String: String] = [:]
        for match in targets.matches(in: spec, range: NSRange(spec.startIndex..., in: spec)) {
            guard let name = Range(match.range(at: 1), in: spec), let version = Range(match.range(at: 2), in: spec) else {
                continue
            }
            found[String(spec[name])] = String(spec[version])
        }
        #expect(found == ["IssuerApp": "17.0", "NonUIExtension": "14.0", "UIExtension": "14.0"])
    }

    @Test func noSourceAnIOSAppLinksUsesASymbolNewerThanTheFloor() throws {
        var scanned = 0
        for folder in Self.scannedFolders {
            for file in try Self.swiftFiles(under: folder) {
                let source = try String(contentsOf: Self.packageRoot.appendingPathComponent(file), encoding: .utf8)
                scanned += 1
                for finding in try Self.findings(in: source, file: file) { Issue.record("\(finding)") }
            }
        }
        #expect(scanned > 80, "scanned \(scanned) files")
    }

    @Test func theScanSeesCodeAndSkipsCommentsAndStrings() throws {
        let source = """
            /// `Duration` needs iOS 16; Task.sleep(for:) too.
            let message = "within \\(timeout) — #/not a regex/#, Date.now, \\(Duration.seconds(1))"
            /* URL(filePath: "x") */ let ok = 1
            try await Task.sleep(for: .seconds(1))
            let deadline: Duration = .seconds(15)
            let (data, _) = try await URLSession.shared.data(for: request)
            let lock = Mutex<Int>(0)
            let pattern = #/\\d+/#
            let label = value.formatted(.number)
            let stream: any AsyncSequence<Int, Never>
            """
        let findings = try Self.findings(in: source, file: "Sample.swift")
        #expect(findings.map(\.line) == [2, 4, 5, 6, 7, 8, 9, 10], "\(findings)")
        #expect(findings.map(\.ios) == ["16", "16", "16", "15", "18", "16", "15", "16"])
    }
}
