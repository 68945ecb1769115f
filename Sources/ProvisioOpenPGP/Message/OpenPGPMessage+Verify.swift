import Foundation

extension OpenPGPMessage {
    /// Checks the signed message's shape (one-pass signatures, literal, signatures; or
    /// signatures, literal) and verifies its signatures (RFC 9580 §10.3, §5.2.4).
    static func verify(
        _ packets: [Packet], signers: [OpenPGPPublicKey], at time: UInt64, limits: OpenPGPLimits
    ) throws(OpenPGPError) -> OpenPGPOpenedMessage {
        var index = 0
        var onePassCount = 0
        var signatures: [SignaturePacket] = []
        while index < packets.count, packets[index].tag == .onePassSignature || packets[index].tag == .signature {
            try limits.check(onePassCount + signatures.count + 1, against: limits.maximumSignatures, "signatures on a message")
            if packets[index].tag == .onePassSignature {
                _ = try OnePassSignaturePacket.read(packets[index].body)
                onePassCount += 1
            } else {
                signatures.append(try SignaturePacket.read(packets[index].body, limits: limits))
            }
            index += 1
        }
        guard onePassCount == 0 || signatures.isEmpty else {
            throw OpenPGPError(.unexpectedPacket, "one-pass and prefixed signatures mixed")
        }
        guard index < packets.count, packets[index].tag == .literalData else {
            throw OpenPGPError(.unexpectedPacket, "a message without its literal data where it belongs")
        }
        let literal = try LiteralDataPacket.read(packets[index].body)
        try limits.check(literal.data.count, against: limits.maximumPlaintextBytes, "literal data bytes")
        index += 1
        var trailing = 0
        while index < packets.count, packets[index].tag == .signature {
            try limits.check(onePassCount + trailing + 1, against: limits.maximumSignatures * 2, "signatures on a message")
            signatures.append(try SignaturePacket.read(packets[index].body, limits: limits))
            trailing += 1
            index += 1
        }
        guard index == packets.count else { throw OpenPGPError(.unexpectedPacket, "packets after the signed data") }
        guard trailing == onePassCount else {
            throw OpenPGPError(.unexpectedPacket, "\(onePassCount) one-pass signatures but \(trailing) signatures")
        }
        guard !signatures.isEmpty else { throw OpenPGPError(.unsigned, "the message is not signed") }

        var verified: (signature: SignaturePacket, key: KeyComponent, signer: OpenPGPPublicKey)?
        for signature in signatures {
            guard
                let (signer, key) = signers.lazy.compactMap({ signer in
                    signer.certificate.component(fingerprint: signature.issuerFingerprint, keyID: signature.issuerKeyID)
                        .map { (signer, $0) }
                }).first
            else { continue }
            let hashed: [UInt8]
            switch SignatureType(rawValue: signature.type) {
            case .binaryDocument?: hashed = Array(literal.data)
            case .textDocument?: hashed = canonicalText(literal.data)
            default: throw OpenPGPError(.unexpectedPacket, "a signature of type \(signature.type) on data")
            }
            guard try signature.verify(with: key.packet, signed: { $0.update(hashed) }) else {
                throw OpenPGPError(.badSignature, "the signature by \(hex(key.packet.fingerprint)) does not verify")
            }
            guard let created = signature.creationTime.map(UInt64.init), key.can(KeyComponent.sign),
                key.isValid(at: created), signer.certificate.primary.isValid(at: created), !signature.isExpired(at: time)
            else {
                throw OpenPGPError(
                    .badSignature, "the signature by \(hex(key.packet.fingerprint)) was made by a key not valid for signing then")
            }
            verified = verified ?? (signature, key, signer)
        }
        guard let verified else {
            throw OpenPGPError(.unknownSigner, "no signature on the message is by one of the given signers")
        }
        return OpenPGPOpenedMessage(
            data: Data(literal.data), signingKeyFingerprint: hex(verified.key.packet.fingerprint),
            signerFingerprint: verified.signer.fingerprint,
            signatureTime: Date(timeIntervalSince1970: TimeInterval(verified.signature.creationTime ?? 0)),
            fileName: String(decoding: literal.fileName, as: UTF8.self))
    }

    /// Text signed as text is hashed with CRLF line endings (RFC 9580 §5.2.1.2).
    private static func canonicalText(_ data: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + data.count / 32)
        var previous: UInt8 = 0
        for byte in data {
            if byte == 0x0A && previous != 0x0D { out.append(0x0D) }
            out.append(byte)
            previous = byte
        }
        return out
    }
}
