import Foundation

/// ASCII armour (RFC 9580 §6; the checksum line of RFC 4880 §6.1, which GnuPG writes and
/// checks): base64 in 64-column lines between BEGIN and END lines naming the content.
public enum OpenPGPArmor {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case message = "PGP MESSAGE"
        case publicKey = "PGP PUBLIC KEY BLOCK"
        case privateKey = "PGP PRIVATE KEY BLOCK"
        case signature = "PGP SIGNATURE"
    }

    public static func encode<Bytes: DataProtocol>(_ bytes: Bytes, as kind: Kind) -> String {
        let data = Data(bytes)
        var text = "-----BEGIN \(kind.rawValue)-----\n\n"
        text.reserveCapacity(data.count * 4 / 3 + data.count / 48 + 100)
        let base64 = data.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        if !base64.isEmpty { text += base64 + "\n" }
        let crc = CRC24.checksum(data)
        let crcBytes = Data([UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        text += "=" + crcBytes.base64EncodedString() + "\n"
        text += "-----END \(kind.rawValue)-----\n"
        return text
    }

    /// Whether `bytes` start (after whitespace) like armour rather than a binary packet.
    static func looksArmored<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        let start = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return start.starts(with: Array("-----BEGIN PGP ".utf8))
    }

    /// Decodes the first armoured block of `text`: what it holds and its bytes. Headers are
    /// skipped; the CRC-24 line, when present, must match.
    public static func decode(_ text: String, limits: OpenPGPLimits = .default) throws(OpenPGPError) -> (Kind, Data) {
        try limits.check(text.utf8.count, against: limits.maximumInputBytes, "armoured input bytes")
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
            .map { $0.trimmingCharacters(in: .whitespaces) }[...]
        guard let beginIndex = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN ") }) else {
            throw OpenPGPError(.malformedArmor, "no BEGIN line")
        }
        let kind = try kind(of: lines[beginIndex], "BEGIN")
        lines = lines[(beginIndex + 1)...]
        // Headers ("Key: Value") run to the first blank line (RFC 9580 §6.2).
        guard let blank = lines.firstIndex(where: { $0.isEmpty }) else {
            throw OpenPGPError(.malformedArmor, "no blank line after the armour headers")
        }
        guard lines[..<blank].allSatisfy({ $0.contains(": ") }) else {
            throw OpenPGPError(.malformedArmor, "an armour header line without a key and value")
        }
        lines = lines[(blank + 1)...]
        guard let endIndex = lines.firstIndex(where: { $0.hasPrefix("-----END ") }) else {
            throw OpenPGPError(.malformedArmor, "no END line")
        }
        guard try Self.kind(of: lines[endIndex], "END") == kind else {
            throw OpenPGPError(.malformedArmor, "the END line names another kind than the BEGIN line")
        }
        var body = lines[..<endIndex]
        var checksum: Data?
        if let last = body.last, last.hasPrefix("=") {
            guard let crc = Data(base64Encoded: String(last.dropFirst())), crc.count == 3 else {
                throw OpenPGPError(.malformedArmor, "a checksum line that is not three base64 bytes")
            }
            checksum = crc
            body = body.dropLast()
        }
        guard let data = Data(base64Encoded: body.joined()) else {
            throw OpenPGPError(.malformedArmor, "the armoured data is not base64")
        }
        if let checksum {
            let crc = CRC24.checksum(data)
            guard checksum == Data([UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]) else {
                throw OpenPGPError(.armorChecksumMismatch, "the armour's CRC-24 does not match its data")
            }
        }
        return (kind, data)
    }

    private static func kind(of line: String, _ word: String) throws(OpenPGPError) -> Kind {
        let prefix = "-----\(word) "
        guard line.hasSuffix("-----"), line.count >= prefix.count + 5 else {
            throw OpenPGPError(.malformedArmor, "a \(word) line that does not end in five dashes")
        }
        let name = String(line.dropFirst(prefix.count).dropLast(5))
        guard let kind = Kind(rawValue: name) else {
            throw OpenPGPError(.unsupportedPacket, "armour of a kind this module does not read")
        }
        return kind
    }

    /// Binary packets from input that may be armoured (of `kind`) or binary already.
    static func binary<Bytes: DataProtocol>(_ input: Bytes, expecting kind: Kind, limits: OpenPGPLimits) throws(OpenPGPError)
        -> [UInt8]
    {
        try limits.check(input.count, against: limits.maximumInputBytes, "input bytes")
        guard looksArmored(input) else { return Array(input) }
        guard let text = String(bytes: input, encoding: .utf8) else {
            throw OpenPGPError(.malformedArmor, "armour that is not UTF-8 text")
        }
        let (found, data) = try decode(text, limits: limits)
        guard found == kind else {
            throw OpenPGPError(.unexpectedPacket, "armour holding a \(found.rawValue), not a \(kind.rawValue)")
        }
        return Array(data)
    }
}
