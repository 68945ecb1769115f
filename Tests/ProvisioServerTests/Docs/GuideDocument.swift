import Foundation

/// The examples a guide holds, between `<!-- example: name -->` and `<!-- /example -->` lines,
/// read and replaced by name; everything else in the guide is left as written.
struct GuideDocument {
    var text: String

    static func opening(_ name: String) -> String { "<!-- example: \(name) -->\n" }
    static let closing = "<!-- /example -->"

    /// Each example's markdown by name.
    var examples: [String: String] {
        var found: [String: String] = [:]
        var rest = text[...]
        while let start = rest.range(of: "<!-- example: ") {
            guard let nameEnd = rest[start.upperBound...].range(of: " -->\n"),
                let end = rest[nameEnd.upperBound...].range(of: Self.closing)
            else { break }
            found[String(rest[start.upperBound..<nameEnd.lowerBound])] = String(rest[nameEnd.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return found
    }

    /// The guide with `example`'s markdown in place of what its markers held (unchanged when the
    /// guide has no such markers).
    mutating func replace(_ example: GuideExample) {
        guard let start = text.range(of: Self.opening(example.name)),
            let end = text[start.upperBound...].range(of: Self.closing)
        else { return }
        text.replaceSubrange(start.upperBound..<end.lowerBound, with: example.text)
    }

    /// The markers and markdown to paste for an example.
    static func block(_ example: GuideExample) -> String {
        opening(example.name) + example.text + closing
    }
}
