import ProvisioJSON

/// The bounds `mdes-issuer-outbound-openapi.yaml` sets on a value and that decoding into the
/// generated types does not check: string lengths and patterns, integer ranges, array sizes.
/// A node lists only the properties that carry a bound somewhere below them, so the table in
/// `MDESFieldRules` reads like the document. `MDESFieldRulesTests` derives the same tree from the
/// document and requires equality: no bound stricter than the document, none missing.
indirect enum MDESFieldRule: Sendable, Equatable {
    case object([String: MDESFieldRule])
    case array(items: MDESFieldRule?, minItems: Int?)
    /// `minLength`/`maxLength` count code points, as JSON Schema does.
    case string(length: ClosedRange<Int>?, pattern: MDESFieldPattern?)
    case integer(ClosedRange<Int>)

    static func string(_ length: ClosedRange<Int>) -> MDESFieldRule { .string(length: length, pattern: nil) }

    /// The first broken bound in `value`, as the refusal MDES gets (naming the field, never its
    /// value). A value of another JSON type is left to the generated decoder, which refuses it.
    func check(_ value: JSONValue, at path: String) throws {
        switch (self, value) {
        case (.object(let properties), .object(let object)):
            for (name, rule) in properties.sorted(by: { $0.key < $1.key }) {
                guard let member = object[name], !member.isNull else { continue }
                try rule.check(member, at: path.isEmpty ? name : "\(path).\(name)")
            }
        case (.array(let items, let minItems), .array(let elements)):
            if let minItems, elements.count < minItems { throw MDESRefusal.length(path) }
            if let items {
                for element in elements { try items.check(element, at: path) }
            }
        case (.string(let length, let pattern), .string(let text)):
            if let length, !length.contains(text.unicodeScalars.count) { throw MDESRefusal.length(path) }
            if let pattern, !pattern.matches(text) { throw MDESRefusal.format(path) }
        case (.integer(let range), .number(let literal)):
            // A fraction or exponent is not an integer; a number too large for Int is out of range.
            guard literal.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) }) else {
                throw MDESRefusal.format(path)
            }
            guard let number = Int(literal), range.contains(number) else { throw MDESRefusal.value(path) }
        default:
            return
        }
    }
}

/// The `pattern`s the document uses, by meaning rather than as regular expressions.
enum MDESFieldPattern: Sendable, Equatable {
    /// `^([0-9A-Fa-f]{2})*$`: whole bytes of hexadecimal, either case.
    case hexBytes
    /// `^[0-9]{n,m}$` (or `{n}`): ASCII digits only, n to m of them.
    case digits(ClosedRange<Int>)
    /// `^[!-~]+$`: visible ASCII, no space (Provisio's rule for the references it stores).
    case visibleASCII

    func matches(_ text: String) -> Bool {
        let bytes = text.utf8
        switch self {
        case .hexBytes:
            return bytes.count % 2 == 0
                && bytes.allSatisfy { byte in
                    (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
                }
        case .digits(let count):
            return count.contains(bytes.count) && bytes.allSatisfy { (0x30...0x39).contains($0) }
        case .visibleASCII:
            return !bytes.isEmpty && bytes.allSatisfy { (0x21...0x7E).contains($0) }
        }
    }
}
