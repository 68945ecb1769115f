import Foundation
import ProvisioCore

/// Why `StrictJSONParser` refused a document, and where.
///
/// It never holds the input's text: only the kind, the byte offset and the path of keys and array
/// indexes leading to the failure. Keys are input too, so `description` and `provisioError` leave
/// them out; a caller that decides a key is safe to show reads `path` (or
/// `pathDescription(revealingKeys: true)`).
public struct StrictJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A byte that cannot start or continue the expected token (comments, single quotes, NaN,
        /// a trailing comma, a missing colon, whitespace other than space/tab/CR/LF, …).
        case syntax
        /// The input ends inside a value (or holds no value at all).
        case unexpectedEnd
        /// A number that is not RFC 8259 (leading zero, `1.`, `1e`, `-`, …).
        case invalidNumber
        /// A backslash escape that is not one of the RFC's, or a `\u` without four hex digits.
        case invalidEscape
        /// A `\u` escape of a UTF-16 surrogate that is not part of a high + low pair.
        case loneSurrogate
        /// A raw byte below 0x20 inside a string (the RFC requires them escaped).
        case controlCharacter
        /// Bytes that are not well-formed UTF-8 (overlong, encoded surrogate, above U+10FFFF,
        /// truncated or stray continuation bytes).
        case invalidUTF8
        /// The input starts with a UTF-8 byte order mark.
        case byteOrderMark
        /// Anything but whitespace after the top-level value.
        case trailingData
        /// An object has the same key twice (compared after unescaping; canonically equivalent
        /// keys count as the same).
        case duplicateKey
        /// Arrays and objects nested deeper than `Limits.maxDepth`.
        case tooDeep
        /// The input is longer than `Limits.maxBytes`.
        case tooLarge
        /// A string or key longer, once unescaped, than `Limits.maxStringBytes` UTF-8 bytes.
        case stringTooLong
        /// An object or array with more than `Limits.maxContainerCount` members or elements.
        case tooManyMembers
    }

    /// One step from the top-level value to where the parser stopped.
    public enum PathComponent: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public let kind: Kind
    /// Zero-based byte offset into the input of the byte that made the document invalid (for
    /// `stringTooLong` the string's opening quote, for `tooDeep` the bracket one level too deep,
    /// for `duplicateKey` the second key's opening quote, for `tooLarge` the first byte past the limit).
    public let offset: Int
    /// The keys and indexes of the containers the parser was in; for `duplicateKey` it ends with the
    /// repeated key.
    public let path: [PathComponent]

    public init(kind: Kind, offset: Int, path: [PathComponent] = []) {
        self.kind = kind
        self.offset = offset
        self.path = path
    }

    /// The path as `$["cards"][2]["pan"]`, or with keys hidden as `$.<key>[2].<key>`.
    public func pathDescription(revealingKeys: Bool) -> String {
        var text = "$"
        for component in path {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where revealingKeys:
                var quoted: [UInt8] = []
                JSONValue.appendCanonical(string: key, to: &quoted)
                text += "[" + String(decoding: quoted, as: UTF8.self) + "]"
            case .key:
                text += ".<key>"
            }
        }
        return text
    }

    /// Safe to log: no input text, keys hidden.
    public var description: String {
        "StrictJSONError(\(kind.rawValue) at byte \(offset), path \(pathDescription(revealingKeys: false)))"
    }

    /// The wire error: `duplicate_json_key` for a repeated key, `invalid_json` otherwise, with a
    /// message that names the byte offset but never quotes the body (it may carry a PAN).
    public var provisioError: ProvisioError {
        switch kind {
        case .duplicateKey:
            ProvisioError(.duplicateJSONKey, "The request body has the same key twice in one object (byte \(offset)).")
        case .syntax:
            ProvisioError(.invalidJSON, "The request body is not valid JSON (byte \(offset)).")
        case .unexpectedEnd:
            ProvisioError(.invalidJSON, "The request body ends before its JSON value does (byte \(offset)).")
        case .invalidNumber:
            ProvisioError(.invalidJSON, "The request body has a malformed number (byte \(offset)).")
        case .invalidEscape:
            ProvisioError(.invalidJSON, "The request body has an invalid escape in a string (byte \(offset)).")
        case .loneSurrogate:
            ProvisioError(.invalidJSON, "The request body has an unpaired surrogate escape in a string (byte \(offset)).")
        case .controlCharacter:
            ProvisioError(.invalidJSON, "The request body has an unescaped control character in a string (byte \(offset)).")
        case .invalidUTF8:
            ProvisioError(.invalidJSON, "The request body is not valid UTF-8 (byte \(offset)).")
        case .byteOrderMark:
            ProvisioError(.invalidJSON, "The request body must not start with a byte order mark.")
        case .trailingData:
            ProvisioError(.invalidJSON, "The request body has data after its JSON value (byte \(offset)).")
        case .tooDeep:
            ProvisioError(.invalidJSON, "The request body nests objects and arrays too deeply (byte \(offset)).")
        case .tooLarge:
            ProvisioError(.invalidJSON, "The request body is too large.")
        case .stringTooLong:
            ProvisioError(.invalidJSON, "The request body has a string that is too long (byte \(offset)).")
        case .tooManyMembers:
            ProvisioError(.invalidJSON, "The request body has an object or array with too many entries (byte \(offset)).")
        }
    }
}
