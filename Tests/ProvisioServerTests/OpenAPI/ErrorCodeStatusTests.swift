import Foundation
import ProvisioCore
import Testing

@testable import ProvisioServer

/// Every error code declared anywhere in `Sources/`, read from the source text: each
/// `static let name = Self("the_code", status: .someStatus)` inside an
/// `extension ProvisioError.Code`. The compiler already refuses a code without a status; this
/// reading lets the tests look a code up by its string (as the OpenAPI document names it) and
/// see every declaration of it, wherever it lives.
struct ErrorCodeDeclarations: Sendable {
    struct Declaration: Sendable, CustomStringConvertible {
        let name: String
        let code: String
        /// The case name as written (`notFound`), and the status it names (nil if no such case).
        let statusName: String
        let status: ProvisioError.Status?
        let location: String

        var description: String { "\(location): \(name) = \(code) (\(statusName))" }
    }

    let declarations: [Declaration]
    /// Declarations in a `ProvisioError.Code` extension that do not declare a status the
    /// scanner recognizes, and any code built from a string alone (`: Self = "…"`,
    /// `Code(rawValue:)`): each as `file:line: text`.
    let leftovers: [String]

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // OpenAPI
            .deletingLastPathComponent()  // ProvisioServerTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
    }

    /// The statuses `code` is declared with (empty when it is declared nowhere).
    func statuses(of code: String) -> Set<ProvisioError.Status?> {
        Set(declarations.filter { $0.code == code }.map(\.status))
    }

    static func scan() throws -> ErrorCodeDeclarations {
        let sources = packageRoot.appendingPathComponent("Sources")
        let statusesByName = Dictionary(uniqueKeysWithValues: ProvisioError.Status.allCases.map { ("\($0)", $0) })
        var declarations: [Declaration] = []
        var leftovers: [String] = []
        for file in try swiftFiles(under: sources) {
            let text = try String(contentsOf: file, encoding: .utf8)
            let relative = String(file.path.dropFirst(packageRoot.path.count + 1))
            let found = matches(of: declaration, in: text)
            for match in found {
                let statusName = match.groups[2]
                declarations.append(
                    Declaration(
                        name: match.groups[0], code: match.groups[1], statusName: statusName,
                        status: statusesByName[statusName], location: "\(relative):\(line(of: match.range, in: text))"))
            }
            // Every `static let`/`static var` inside an extension of the code type must be one
            // of the declarations just read.
            for block in codeExtensionBlocks(in: text) {
                for member in matches(of: staticMember, in: text, range: block) {
                    let covered = found.contains { NSLocationInRange(member.range.location, $0.range) }
                    if !covered { leftovers.append("\(relative):\(line(of: member.range, in: text)): \(member.text)") }
                }
            }
            for match in matches(of: stringOnlyCode, in: text) where !isInComment(match.range, in: text) {
                leftovers.append("\(relative):\(line(of: match.range, in: text)): \(match.text)")
            }
        }
        return ErrorCodeDeclarations(declarations: declarations, leftovers: leftovers)
    }

    // MARK: - Reading the sources

    /// `static let name = Self("code", status: .case)` at the start of a line (so not in a
    /// comment); `Code(`, `ProvisioError.Code(` and `.init(` are read too, and an explicit
    /// `: Self` / `: ProvisioError.Code` annotation.
    private static let declaration = try! NSRegularExpression(
        pattern: modifiers
            + #"static\s+let\s+(\w+)\s*(?::\s*[\w.]+\s*)?=\s*(?:Self|Code|ProvisioError\.Code|\.init)\s*\(\s*"([^"\\]*)"\s*,\s*status:\s*\.(\w+)\s*\)"#,
        options: .anchorsMatchLines)
    private static let staticMember = try! NSRegularExpression(
        pattern: modifiers + #"static\s+(?:let|var)\s+\w+[^\n]*"#, options: .anchorsMatchLines)
    /// A line's start: indentation and access modifiers.
    private static let modifiers = #"^[ \t]*(?:(?:public|package|internal|fileprivate|private|nonisolated)\s+)*"#
    /// A code made from a string with no status: a string-literal declaration or the old
    /// `rawValue` initializer (another framework's `Code`, such as `LAError.Code`, is not ours).
    private static let stringOnlyCode = try! NSRegularExpression(
        pattern:
            #"(?::\s*(?:Self|(?:ProvisioError\.)?Code)\s*=\s*"[^"\n]*")|(?:(?<![A-Za-z]Error\.)(?<!LAError\.)Code\s*\(\s*rawValue\s*:)|(?:ProvisioError\.Code\s*\(\s*rawValue\s*:)"#
    )
    private static let codeExtension = try! NSRegularExpression(pattern: #"extension\s+ProvisioError\.Code\b[^{]*\{"#)

    private struct Match {
        let range: NSRange
        let text: String
        let groups: [String]
    }

    private static func matches(of regex: NSRegularExpression, in text: String, range: NSRange? = nil) -> [Match] {
        let whole = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range ?? whole).map { result in
            let groups = (1..<result.numberOfRanges).map { index -> String in
                Range(result.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
            return Match(range: result.range, text: Range(result.range, in: text).map { String(text[$0]) } ?? "", groups: groups)
        }
    }

    /// The bodies of every `extension ProvisioError.Code { … }`, found by matching braces
    /// (these extensions hold declarations only, so no brace hides in a string).
    private static func codeExtensionBlocks(in text: String) -> [NSRange] {
        let utf16 = Array(text.utf16)
        return codeExtension.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            let open = match.range.location + match.range.length
            var depth = 1
            var index = open
            while index < utf16.count, depth > 0 {
                if utf16[index] == 0x7B { depth += 1 }  // {
                if utf16[index] == 0x7D { depth -= 1 }  // }
                index += 1
            }
            return NSRange(location: open, length: index - open)
        }
    }

    /// Whether the line of `range` is a comment line (`//`, `///`) up to it.
    private static func isInComment(_ range: NSRange, in text: String) -> Bool {
        let before = (text as NSString).substring(to: range.location)
        let lineStart = before.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        return lineStart.contains("//")
    }

    private static func line(of range: NSRange, in text: String) -> Int {
        let prefix = (text as NSString).substring(to: range.location)
        return prefix.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }

    private static func swiftFiles(under directory: URL) throws -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw OpenAPISpec.LoadError(description: "cannot list \(directory.path)")
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
    }
}

/// Each error code declares its HTTP status where it is defined; nothing guesses a status from
/// a code's name. These tests hold the declarations to that and to the OpenAPI document: a code
/// documented under a 404 response but declared `.badRequest` fails
/// `documentedCodesAreDeclaredWithTheirResponseStatus`.
@Suite struct ErrorCodeStatusTests {
    let found: ErrorCodeDeclarations

    init() throws {
        found = try ErrorCodeDeclarations.scan()
    }

    @Test func everyDeclaredCodeHasAKnownStatus() {
        // Far fewer would mean the scanner lost track of the declarations' shape.
        #expect(found.declarations.count >= 170, "found only \(found.declarations.count) declarations")
        #expect(found.leftovers.isEmpty, "declarations without a status: \(found.leftovers)")
        let unknown = found.declarations.filter { $0.status == nil }
        #expect(unknown.isEmpty, "declarations naming no ProvisioError.Status case: \(unknown)")
        let notSnakeCase = found.declarations.filter { declaration in
            declaration.code.isEmpty
                || !declaration.code.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
        }
        #expect(notSnakeCase.isEmpty, "codes that are not snake_case: \(notSnakeCase)")
    }

    @Test func noCodeIsDeclaredTwiceWithDifferentStatuses() {
        let byCode = Dictionary(grouping: found.declarations, by: \.code)
        for (code, declarations) in byCode.sorted(by: { $0.key < $1.key }) {
            #expect(Set(declarations.map(\.statusName)).count == 1, "\(code) has different statuses: \(declarations)")
        }
    }

    /// Every code an error response of the served document lists in `x-error-codes` is declared
    /// in `Sources/`, with exactly that response's status.
    @Test func documentedCodesAreDeclaredWithTheirResponseStatus() throws {
        let spec = try OpenAPISpec.load()
        var checked = 0
        for operation in spec.operations {
            for key in (operation.object["responses"]?.objectValue ?? [:]).keys.sorted() {
                guard let status = Int(key), let response = try spec.response(of: operation, status: status),
                    let codes = response["x-error-codes"]?.arrayValue?.compactMap(\.stringValue)
                else { continue }
                for code in codes {
                    checked += 1
                    let declared = found.statuses(of: code)
                    #expect(!declared.isEmpty, "\(operation.key) \(status) documents \(code), which Sources/ never declares")
                    #expect(
                        declared == [ProvisioError.Status(rawValue: status)],
                        "\(code) is declared \(declared.map { $0.map { "\($0.rawValue)" } ?? "?" }.sorted()), but \(operation.key) documents it under \(status)"
                    )
                }
            }
        }
        #expect(checked > 0, "the document lists no x-error-codes")
    }

    /// The scan reads what the compiler compiled: a few codes, compared with their values.
    @Test func theScanAgreesWithTheCompiledCodes() {
        let codes: [ProvisioError.Code] = [
            .invalidRequest, .cardNotFound, .tokenNotFound, .missingCredentials, .tokenScopeMismatch, .payloadTooLarge,
            .requestTimeout, .methodNotAllowed, .cardClosed, .cardExpired, .chainUnknownRoot, .vaultKeyUnknown,
            .networkUnavailable, .databaseUnavailable, .internalError,
        ]
        for code in codes {
            #expect(found.statuses(of: code.rawValue) == [code.status], "\(code)")
        }
    }

    @Test func aReceivedCodeIsABadGatewayAndEqualsTheDeclaredOne() {
        let received = ProvisioError.Code(received: "card_not_found")
        #expect(received.status == .badGateway)
        #expect(received == .cardNotFound)
        #expect(received.hashValue == ProvisioError.Code.cardNotFound.hashValue)
        #expect(Set([received, .cardNotFound]).count == 1)
        #expect(ProvisioError(received, "x") == ProvisioError(.cardNotFound, "x"))
    }
}
