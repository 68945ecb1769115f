/// A transferable public key (RFC 9580 §10.1) after its self-signatures were checked: the
/// packets kept (primary key, user IDs, subkeys, and the signatures on each) and what the valid
/// self-signatures say about each key.
struct Certificate: Sendable {
    /// The packets in order, public forms only; trust packets and unusable parts left out.
    let packets: [Packet]
    let primary: KeyComponent
    let subkeys: [KeyComponent]
    let userIDs: [String]

    var components: [KeyComponent] { [primary] + subkeys }

    /// The key (primary or subkey) with this fingerprint or key ID.
    func component(fingerprint: [UInt8]?, keyID: [UInt8]?) -> KeyComponent? {
        components.first { component in
            if let fingerprint { return component.packet.fingerprint == fingerprint }
            return component.packet.keyID == keyID
        }
    }

    /// The key to sign with at `time`: the primary if it may sign, else the newest signing subkey.
    func signingKey(at time: UInt64) throws(OpenPGPError) -> KeyComponent {
        try usable(KeyComponent.sign, at: time, "sign")
    }

    /// The key to encrypt to at `time`: the newest encryption subkey, else the primary.
    func encryptionKey(at time: UInt64) throws(OpenPGPError) -> KeyComponent {
        try usable(KeyComponent.encrypt, at: time, "encrypt")
    }

    private func usable(_ capability: UInt8, at time: UInt64, _ verb: String) throws(OpenPGPError) -> KeyComponent {
        guard primary.isValid(at: time) else {
            throw OpenPGPError(.keyUnusable, "key \(hex(primary.packet.fingerprint)) is expired, revoked or not yet valid")
        }
        let candidates = (capability == KeyComponent.sign ? [primary] + subkeys.reversed() : subkeys.reversed() + [primary])
        guard let key = candidates.first(where: { $0.can(capability) && $0.isValid(at: time) }) else {
            throw OpenPGPError(.keyUnusable, "key \(hex(primary.packet.fingerprint)) has no valid key that may \(verb)")
        }
        return key
    }
}

/// Upper-case hexadecimal, as GnuPG prints fingerprints and key IDs.
func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
    let digits = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in bytes {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
}
