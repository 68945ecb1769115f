extension Certificate {
    /// Reads a transferable public key (public forms of the packets; see `OpenPGPSecretKey` for
    /// secret ones) and checks its self-signatures (RFC 9580 §10.1, §5.2.4). Signatures by other
    /// keys are kept but not checked: this module trusts a key because the caller gave it.
    init(packets: [Packet], limits: OpenPGPLimits) throws(OpenPGPError) {
        guard let first = packets.first, first.tag == .publicKey else {
            throw OpenPGPError(.unexpectedPacket, "a key that does not start with a public key packet")
        }
        var reader = ByteReader(first.body)
        let primaryKey = try PublicKeyPacket.read(&reader, limits: limits)
        guard let rsa = primaryKey.rsa else {
            throw OpenPGPError(.unsupportedAlgorithm, "a primary key of \(PublicKeyAlgorithm.name(primaryKey.algorithm))")
        }
        guard rsa.modulus.bitCount >= limits.minimumRSABits else {
            throw OpenPGPError(.keyUnusable, "an RSA key of \(rsa.modulus.bitCount) bits: fewer than \(limits.minimumRSABits)")
        }
        let groups = try Self.group(packets.dropFirst(), limits: limits)
        var kept: [Packet] = [first]
        let primarySignatures = try Self.signatures(groups.direct, limits: limits)
        kept += groups.direct

        // User IDs: the newest valid self-certification of each; the one marked primary (else
        // the newest of all) says what the primary key may do and when it expires.
        var userIDs: [String] = []
        var primarySelfSignature: (signature: SignaturePacket, isPrimary: Bool)?
        for (userID, signaturePackets) in groups.userIDs {
            let signatures = try Self.signatures(signaturePackets, limits: limits)
            var prefix: [UInt8] = [0xB4]
            prefix.appendUInt32(UInt32(userID.body.count))
            let signed = primaryKey.hashPrefix + primaryKey.body + prefix + userID.body
            let valid = try Self.newestValid(signatures, by: primaryKey, signed: signed) {
                SignatureType(rawValue: $0)?.isCertification == true
            }
            let revoked = try Self.newestValid(signatures, by: primaryKey, signed: signed) {
                $0 == SignatureType.certificationRevocation.rawValue
            }
            guard let valid, (revoked?.creationTime ?? 0) < (valid.creationTime ?? 0) || revoked == nil else { continue }
            userIDs.append(String(decoding: userID.body, as: UTF8.self))
            kept.append(userID)
            kept += signaturePackets
            let isPrimary = valid.hashed.contains { $0.kind == .primaryUserID && $0.data.first == 1 }
            if let current = primarySelfSignature,
                current.isPrimary && !isPrimary
                    || (current.isPrimary == isPrimary && (current.signature.creationTime ?? 0) > (valid.creationTime ?? 0))
            {
                continue
            }
            primarySelfSignature = (valid, isPrimary)
        }
        let primaryBytes = primaryKey.hashPrefix + primaryKey.body
        let direct = try Self.newestValid(primarySignatures, by: primaryKey, signed: primaryBytes) {
            $0 == SignatureType.directKey.rawValue
        }
        guard let selfSignature = primarySelfSignature?.signature ?? direct else {
            throw OpenPGPError(.invalidKey, "the key has no valid self-signature on a user ID or on itself")
        }
        let primaryRevoked = try Self.newestValid(primarySignatures, by: primaryKey, signed: primaryBytes) {
            $0 == SignatureType.keyRevocation.rawValue
        }
        let primary = KeyComponent(packet: primaryKey, selfSignature: selfSignature, isRevoked: primaryRevoked != nil)

        // Subkeys: bound by the primary's newest valid binding; a signing subkey also needs its
        // own back-signature (0x19) embedded in the binding (RFC 9580 §5.2.1.9).
        var subkeys: [KeyComponent] = []
        for (subkeyPacket, signaturePackets) in groups.subkeys {
            var subkeyReader = ByteReader(subkeyPacket.body)
            let subkey = try PublicKeyPacket.read(&subkeyReader, limits: limits)
            let signatures = try Self.signatures(signaturePackets, limits: limits)
            let signed = primaryBytes + subkey.hashPrefix + subkey.body
            guard let binding = try Self.newestValid(signatures, by: primaryKey, signed: signed, { $0 == 0x18 }) else { continue }
            let revocation = try Self.newestValid(signatures, by: primaryKey, signed: signed) {
                $0 == SignatureType.subkeyRevocation.rawValue
            }
            var component = KeyComponent(packet: subkey, selfSignature: binding, isRevoked: revocation != nil)
            if component.can(KeyComponent.sign), subkey.rsa != nil {
                let backSignatures = binding.embeddedSignatures.compactMap { try? SignaturePacket.read($0, limits: limits) }
                if try Self.newestValid(backSignatures, by: subkey, signed: signed, { $0 == 0x19 }) == nil {
                    component = KeyComponent(
                        packet: subkey, flags: component.flags & ~KeyComponent.sign, expiration: component.expiration,
                        isRevoked: component.isRevoked)
                }
            }
            if let bits = subkey.rsa?.modulus.bitCount, bits < limits.minimumRSABits { continue }
            subkeys.append(component)
            kept.append(subkeyPacket)
            kept += signaturePackets
        }
        self.init(packets: kept, primary: primary, subkeys: subkeys, userIDs: userIDs)
    }

    /// The signatures this module reads; other versions (a v3 certification by a third party,
    /// a v5 or v6 one) are passed over, as signatures it cannot check.
    private static func signatures(_ packets: [Packet], limits: OpenPGPLimits) throws(OpenPGPError) -> [SignaturePacket] {
        var signatures: [SignaturePacket] = []
        for packet in packets {
            do {
                signatures.append(try SignaturePacket.read(packet.body, limits: limits))
            } catch  where error.code == .unsupportedPacket {
                continue
            }
        }
        return signatures
    }

    /// The newest signature of an accepted type, issued by `key`, that verifies over `signed`.
    private static func newestValid(
        _ signatures: [SignaturePacket], by key: PublicKeyPacket, signed: [UInt8], _ accepts: (UInt8) -> Bool
    ) throws(OpenPGPError) -> SignaturePacket? {
        var newest: SignaturePacket?
        for signature in signatures where accepts(signature.type) && signature.mayBeIssued(by: key) {
            // A self-signature made with an algorithm or hash this module lacks is not valid here.
            let verified = (try? signature.verify(with: key) { $0.update(signed) }) ?? false
            if verified, (signature.creationTime ?? 0) >= (newest?.creationTime ?? 0) { newest = signature }
        }
        return newest
    }

    private struct Groups {
        var direct: [Packet] = []
        var userIDs: [(Packet, [Packet])] = []
        var subkeys: [(Packet, [Packet])] = []
    }

    /// Sorts the packets after the primary key into the signatures on it and the components
    /// (user IDs, subkeys) each followed by its signatures (RFC 9580 §10.1's grammar).
    private static func group(_ packets: ArraySlice<Packet>, limits: OpenPGPLimits) throws(OpenPGPError) -> Groups {
        enum Current { case primary, userID, userAttribute, subkey }
        var groups = Groups()
        var current = Current.primary
        for packet in packets {
            switch packet.tag {
            case .trust, .marker, .padding:
                continue
            case .signature:
                switch current {
                case .primary: groups.direct.append(packet)
                case .userID: groups.userIDs[groups.userIDs.count - 1].1.append(packet)
                case .userAttribute: continue
                case .subkey: groups.subkeys[groups.subkeys.count - 1].1.append(packet)
                }
            case .userID:
                try limits.check(groups.userIDs.count + 1, against: limits.maximumKeyComponents, "user IDs on a key")
                groups.userIDs.append((packet, []))
                current = .userID
            case .userAttribute:
                // Photo IDs: this module neither uses nor re-exports them.
                current = .userAttribute
            case .publicSubkey:
                try limits.check(groups.subkeys.count + 1, against: limits.maximumKeyComponents, "subkeys on a key")
                groups.subkeys.append((packet, []))
                current = .subkey
            default:
                throw OpenPGPError(.unexpectedPacket, "a packet of type \(packet.rawTag) inside a key")
            }
        }
        return groups
    }
}
