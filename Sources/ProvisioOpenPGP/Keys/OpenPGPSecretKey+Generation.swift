import Foundation

extension OpenPGPSecretKey {
    /// Generates a key shaped as Google asks of issuers: an RSA primary key that certifies and
    /// signs, and an RSA subkey that encrypts, both expiring after `validity` (Google: one year,
    /// two at most), with a self-certified user ID.
    ///
    /// Preferences written into the self-signature: AES-256/192/128, SHA-384/512/256, ZLIB/ZIP/
    /// none, and the modification detection feature only, so that GnuPG encrypts to this key
    /// with SEIPD version 1 (RFC 9580 §5.13.1), the packet this module reads.
    public static func generateRSA(
        userID: String, bits: Int = 3072, creationTime: Date, validity: TimeInterval? = 365 * 24 * 3600
    ) throws(OpenPGPError) -> OpenPGPSecretKey {
        guard (2048...8192).contains(bits), bits % 8 == 0 else {
            throw OpenPGPError(.keyUnusable, "RSA keys of 2048 to 8192 bits only")
        }
        guard let created = UInt32(exactly: creationTime.timeIntervalSince1970.rounded(.down)) else {
            throw OpenPGPError(.keyUnusable, "a creation time outside OpenPGP's range")
        }
        var lifetime: [Subpacket] = []
        if let validity {
            guard validity >= 1, let seconds = UInt32(exactly: validity.rounded(.down)) else {
                throw OpenPGPError(.keyUnusable, "a validity outside OpenPGP's range")
            }
            var data: [UInt8] = []
            data.appendUInt32(seconds)
            lifetime = [Subpacket(.keyExpirationTime, data)]
        }
        let (primaryMaterial, primarySecret) = try RSASecretMaterial.generate(bits: bits)
        let (subkeyMaterial, subkeySecret) = try RSASecretMaterial.generate(bits: bits)
        let primary = PublicKeyPacket(creationTime: created, rsa: primaryMaterial)
        let subkey = PublicKeyPacket(creationTime: created, rsa: subkeyMaterial)
        let userIDBytes = Array(userID.utf8)

        var userIDPrefix: [UInt8] = [0xB4]
        userIDPrefix.appendUInt32(UInt32(userIDBytes.count))
        let certification = try SignaturePacket.make(
            type: .positiveCertification, hash: .sha384, key: primary, secret: primarySecret, creationTime: created,
            extraHashed: [Subpacket(.keyFlags, [KeyComponent.certify | KeyComponent.sign])] + lifetime + [
                Subpacket(.preferredSymmetricAlgorithms, [9, 8, 7]),
                Subpacket(.preferredHashAlgorithms, [9, 10, 8]),
                Subpacket(.preferredCompressionAlgorithms, [2, 1, 0]),
                Subpacket(.features, [0x01]),
                Subpacket(.keyServerPreferences, [0x80]),
                Subpacket(.primaryUserID, [1]),
            ]
        ) { hasher in
            hasher.update(primary.hashPrefix + primary.body + userIDPrefix + userIDBytes)
        }
        let binding = try SignaturePacket.make(
            type: .subkeyBinding, hash: .sha384, key: primary, secret: primarySecret, creationTime: created,
            extraHashed: [Subpacket(.keyFlags, [KeyComponent.encrypt])] + lifetime
        ) { hasher in
            hasher.update(primary.hashPrefix + primary.body + subkey.hashPrefix + subkey.body)
        }
        let packets = [
            Packet(.publicKey, body: primary.body), Packet(.userID, body: userIDBytes),
            Packet(.signature, body: certification.body), Packet(.publicSubkey, body: subkey.body),
            Packet(.signature, body: binding.body),
        ]
        let certificate = try Certificate(packets: packets, limits: .default)
        return OpenPGPSecretKey(
            publicKey: OpenPGPPublicKey(certificate: certificate),
            secrets: [primary.fingerprint: primarySecret, subkey.fingerprint: subkeySecret])
    }
}
