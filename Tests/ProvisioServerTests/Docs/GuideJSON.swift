import Foundation

@testable import ProvisioJSON

/// A JSON value as a guide shows it: keys sorted, two spaces of indent, and what changes from run
/// to run (ids, secrets, opaque payment cards) cut to a stable prefix and "…", so a rerun
/// against the sandbox gives the same text.
indirect enum GuideJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([GuideJSON])
    case object([String: GuideJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .number(String(value))
        } else if let value = try? container.decode(Double.self) {
            self = .number(String(value))
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([GuideJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: GuideJSON].self))
        }
    }

    static func parse(_ data: Data) throws -> GuideJSON {
        try JSONDecoder().decode(GuideJSON.self, from: data)
    }

    /// Values under these keys are opaque blobs or random per run: the guide keeps how they
    /// start (a JWE's header, an OpenPGP packet's tag), or nothing.
    static let opaqueKeys: [String: Int] = [
        "opaque_payment_card": 24, "google_opaque_payment_card": 5, "provision_payload": 24, "activation_data": 12,
        "armored": 36, "google_encryption_keys": 36, "primary_account_identifier": 2, "device_account_identifier": 0,
        "token_last4": 0, "fingerprint": 0, "server_session_id": 0, "stable_hardware_id": 0, "wallet_id": 0,
        "device_id": 0, "wallet_user_id": 0,
    ]

    /// Secrets and bearer tokens: only their prefix is shown.
    static let secretKeys: Set<String> = ["provision_token", "token"]

    /// Ids from Provisio and the sandbox network (`card_` and 20 hex digits): the prefix and "…".
    static func stable(_ text: String) -> String {
        guard let underscore = text.lastIndex(of: "_") else { return text }
        let (head, tail) = (text[..<underscore], text[text.index(after: underscore)...])
        let hex = tail.count >= 16 && tail.allSatisfy { $0.isHexDigit && !$0.isUppercase }
        return hex && head.allSatisfy({ $0.isLowercase || $0 == "_" }) ? head + "_…" : text
    }

    /// Every id in a line of text cut as `stable` cuts it.
    static func stableWords(_ line: String) -> String {
        line.split(separator: " ", omittingEmptySubsequences: false).map { word in
            let trimmed = word.trimmingCharacters(in: CharacterSet(charactersIn: "(),"))
            return trimmed.isEmpty ? String(word) : word.replacingOccurrences(of: trimmed, with: stable(trimmed))
        }.joined(separator: " ")
    }

    /// A bearer secret (`prv_pt_` and 43 base64url characters): its two-word prefix and "…".
    static func secret(_ text: String) -> String {
        let words = text.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
        return words.count == 3 ? "\(words[0])_\(words[1])_…" : "…"
    }

    /// The value with every run-dependent string made stable; `cuts` adds keys to `opaqueKeys`
    /// for one example (a webhook's one-time `code`).
    func stabilized(key: String? = nil, cuts: [String: Int] = [:]) -> GuideJSON {
        switch self {
        case .string(let text):
            if let key, let keep = cuts[key] ?? Self.opaqueKeys[key], text.count > keep {
                return .string(text.prefix(keep) + "…")
            }
            if let key, Self.secretKeys.contains(key) { return .string(Self.secret(text)) }
            return .string(Self.stable(text))
        case .array(let values): return .array(values.map { $0.stabilized(key: key, cuts: cuts) })
        case .object(let members):
            return .object(
                Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value.stabilized(key: $0.key, cuts: cuts)) }))
        case .null, .bool, .number: return self
        }
    }

    /// The text a guide prints: sorted keys, two spaces of indent.
    func rendered(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return Self.quoted(text)
        case .array(let values):
            if values.isEmpty { return "[]" }
            return "[\n" + values.map { inner + $0.rendered(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            let lines = members.sorted { $0.key < $1.key }.map {
                inner + Self.quoted($0.key) + ": " + $0.value.rendered(indent: inner)
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    /// A JSON string literal, escaped by the package's one escaper.
    static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONStringEscaper.append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
