/// The numbers of a PKCS #1 RSAPrivateKey (RFC 8017 §A.1.2), the DER form swift-crypto gives
/// a private key in: enough DER to read one SEQUENCE of INTEGERs, nothing more.
struct PKCS1PrivateKey {
    let modulus: MPI
    let publicExponent: MPI
    let privateExponent: MPI
    let prime1: MPI
    let prime2: MPI
    let coefficient: MPI

    init(der: [UInt8]) throws(OpenPGPError) {
        var outer = ByteReader(der)
        var reader = ByteReader(try Self.element(&outer, tag: 0x30))
        var integers: [MPI] = []
        while !reader.isAtEnd { integers.append(MPI(unsigned: try Self.element(&reader, tag: 0x02))) }
        // version, n, e, d, p, q, d mod (p-1), d mod (q-1), q⁻¹ mod p
        guard integers.count == 9 else { throw OpenPGPError(.cryptoFailure, "an RSA private key of an unexpected form") }
        (modulus, publicExponent, privateExponent) = (integers[1], integers[2], integers[3])
        (prime1, prime2, coefficient) = (integers[4], integers[5], integers[8])
    }

    private static func element(_ reader: inout ByteReader, tag: UInt8) throws(OpenPGPError) -> ArraySlice<UInt8> {
        guard try reader.byte() == tag else { throw OpenPGPError(.cryptoFailure, "an RSA private key of an unexpected form") }
        var length = Int(try reader.byte())
        if length & 0x80 != 0 {
            let octets = length & 0x7F
            guard (1...4).contains(octets) else { throw OpenPGPError(.cryptoFailure, "an RSA private key of an unexpected form") }
            length = 0
            for _ in 0..<octets { length = length << 8 | Int(try reader.byte()) }
        }
        return try reader.take(length)
    }
}
