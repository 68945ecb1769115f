import Foundation

/// The classes declared in a project's Swift and Objective-C sources, with what each inherits
/// from and conforms to — enough to follow a principal class to `PKIssuerProvisioningExtensionHandler`
/// or `PKIssuerProvisioningExtensionAuthorizationProviding`. It reads declarations, not types: a
/// class conforming through a protocol that refines Apple's, or declared by a macro, is not seen.
struct SourceIndex: Sendable {
    struct Declaration: Sendable, Hashable {
        var name: String
        /// The superclass (first) and protocols, without attributes or module prefixes.
        var inherits: [String]
        var isSwift: Bool
        /// The Objective-C name given with `@objc(Name)`.
        var objectiveCName: String?
        var file: String
    }

    private(set) var classes: [String: [Declaration]] = [:]
    /// Conformances added in extensions (`extension Name: Protocol`).
    private(set) var extensions: [String: [String]] = [:]
    /// Source files over the size limit, skipped.
    private(set) var skipped: [String] = []

    init(files: [String], maximumFileBytes: Int) {
        for file in files {
            guard case .success(let data) = BoundedFile.read(file, limit: maximumFileBytes) else {
                skipped.append(file)
                continue
            }
            let text = Self.stripComments(String(decoding: data, as: UTF8.self))
            if file.hasSuffix(".swift") {
                indexSwift(text, file: file)
            } else {
                indexObjectiveC(text, file: file)
            }
        }
    }

    // A class head: attributes and modifiers, `class Name<…>: Inherits {`.
    private static let swiftClass = try! NSRegularExpression(
        pattern:
            #"((?:@[A-Za-z_]\w*(?:\([^)]*\))?\s+|(?:public|open|internal|fileprivate|private|package|final|nonisolated)\s+)*)class\s+([A-Za-z_]\w*)\s*(?:<[^>{]*>)?\s*(?::\s*([^{]+))?\{"#
    )
    private static let swiftExtension = try! NSRegularExpression(
        pattern: #"extension\s+([A-Za-z_][\w.]*)\s*:\s*([^{]+)\{"#)
    private static let objectiveCInterface = try! NSRegularExpression(
        pattern: #"@interface\s+([A-Za-z_]\w*)\s*:\s*([A-Za-z_]\w*)\s*(?:<([^>]*)>)?"#)
    private static let objcName = try! NSRegularExpression(pattern: #"@objc\(\s*([A-Za-z_]\w*)\s*\)"#)

    private mutating func indexSwift(_ text: String, file: String) {
        let range = NSRange(text.startIndex..., in: text)
        for match in Self.swiftClass.matches(in: text, range: range) {
            let attributes = Self.group(match, 1, in: text) ?? ""
            guard let name = Self.group(match, 2, in: text) else { continue }
            let inherits = Self.group(match, 3, in: text).map(Self.typeList) ?? []
            let objcName = Self.objcName.firstMatch(in: attributes, range: NSRange(attributes.startIndex..., in: attributes))
                .flatMap { Self.group($0, 1, in: attributes) }
            classes[name, default: []].append(
                Declaration(name: name, inherits: inherits, isSwift: true, objectiveCName: objcName, file: file))
        }
        for match in Self.swiftExtension.matches(in: text, range: range) {
            guard let name = Self.group(match, 1, in: text), let list = Self.group(match, 2, in: text) else { continue }
            let simple = String(name.split(separator: ".").last ?? Substring(name))
            extensions[simple, default: []] += Self.typeList(list)
        }
    }

    private mutating func indexObjectiveC(_ text: String, file: String) {
        for match in Self.objectiveCInterface.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let name = Self.group(match, 1, in: text), let superclass = Self.group(match, 2, in: text) else { continue }
            let protocols = Self.group(match, 3, in: text).map(Self.typeList) ?? []
            classes[name, default: []].append(
                Declaration(name: name, inherits: [superclass] + protocols, isSwift: false, objectiveCName: name, file: file))
        }
    }

    /// The names in an inheritance list: `@preconcurrency PassKit.PKIssuer…, @unchecked Sendable where …`
    /// → `["PKIssuer…", "Sendable"]`.
    static func typeList(_ text: String) -> [String] {
        let head = text.components(separatedBy: " where ").first ?? text
        return head.split(separator: ",").compactMap { item in
            let words = item.split(whereSeparator: \.isWhitespace).filter { !$0.hasPrefix("@") && $0 != "any" }
            guard let word = words.first else { return nil }
            let name = word.split(separator: "<").first.map(String.init) ?? String(word)
            return name.split(separator: ".").last.map(String.init)
        }
    }

    /// Comments out, so that a class named in a comment is not taken for a declaration.
    static func stripComments(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var iterator = Array(text.unicodeScalars)[...]
        var blockDepth = 0
        while let scalar = iterator.first {
            let next = iterator.dropFirst().first
            if blockDepth > 0 {
                if scalar == "*", next == "/" {
                    blockDepth -= 1
                    iterator = iterator.dropFirst(2)
                } else if scalar == "/", next == "*" {
                    blockDepth += 1
                    iterator = iterator.dropFirst(2)
                } else {
                    if scalar == "\n" { output.unicodeScalars.append("\n") }
                    iterator = iterator.dropFirst()
                }
            } else if scalar == "/", next == "*" {
                blockDepth = 1
                iterator = iterator.dropFirst(2)
            } else if scalar == "/", next == "/" {
                while let current = iterator.first, current != "\n" { iterator = iterator.dropFirst() }
            } else {
                output.unicodeScalars.append(scalar)
                iterator = iterator.dropFirst()
            }
        }
        return output
    }

    private static func group(_ match: NSTextCheckingResult, _ index: Int, in text: String) -> String? {
        guard let range = Range(match.range(at: index), in: text) else { return nil }
        let value = text[range].trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }

    // MARK: - Questions

    func declarations(of name: String) -> [Declaration] { classes[name] ?? [] }

    /// What `name` and its superclasses inherit and conform to, following superclasses declared
    /// in the sources up to `maximumChain` levels; `end` is the first type not declared here.
    func ancestry(of name: String, maximumChain: Int) -> (types: [String], end: String?) {
        var types: [String] = []
        var current = name
        var seen: Set<String> = []
        for _ in 0..<maximumChain {
            guard !seen.contains(current), let declaration = classes[current]?.first else { return (types, current) }
            seen.insert(current)
            types += declaration.inherits + (extensions[current] ?? [])
            guard let superclass = declaration.inherits.first else { return (types, nil) }
            types.append(superclass)
            current = superclass
        }
        return (types, current)
    }
}
