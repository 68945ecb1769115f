/// The bounds every parse and open respects, so that hostile input costs at most linear time
/// and bounded memory. The defaults suit an opaque payment card (a few hundred bytes) with room
/// to spare; every limit has a test that crosses it.
public struct OpenPGPLimits: Hashable, Sendable {
    /// The most bytes a message or key may have as given (armoured or binary).
    public var maximumInputBytes: Int
    /// The most bytes of literal data (after decryption and decompression).
    public var maximumPlaintextBytes: Int
    /// The most packets in one sequence (a message's outer layer, a decrypted layer, a key).
    public var maximumPackets: Int
    /// The most session key packets a message may carry.
    public var maximumRecipients: Int
    /// The most signatures (and one-pass signatures) a message may carry.
    public var maximumSignatures: Int
    /// The most subpackets in one area of a signature.
    public var maximumSubpackets: Int
    /// The most bits of an MPI, and so of an RSA modulus.
    public var maximumKeyBits: Int
    /// The fewest bits of an RSA modulus a key may use (Google asks for 2048 or more).
    public var minimumRSABits: Int
    /// The most user IDs and the most subkeys a transferable key may carry, each.
    public var maximumKeyComponents: Int
    /// The most compressed packets nested inside each other.
    public var maximumCompressionDepth: Int

    public init(
        maximumInputBytes: Int = 1 << 20,
        maximumPlaintextBytes: Int = 1 << 20,
        maximumPackets: Int = 64,
        maximumRecipients: Int = 16,
        maximumSignatures: Int = 8,
        maximumSubpackets: Int = 64,
        maximumKeyBits: Int = 8192,
        minimumRSABits: Int = 2048,
        maximumKeyComponents: Int = 16,
        maximumCompressionDepth: Int = 1
    ) {
        self.maximumInputBytes = maximumInputBytes
        self.maximumPlaintextBytes = maximumPlaintextBytes
        self.maximumPackets = maximumPackets
        self.maximumRecipients = maximumRecipients
        self.maximumSignatures = maximumSignatures
        self.maximumSubpackets = maximumSubpackets
        self.maximumKeyBits = maximumKeyBits
        self.minimumRSABits = minimumRSABits
        self.maximumKeyComponents = maximumKeyComponents
        self.maximumCompressionDepth = maximumCompressionDepth
    }

    public static let `default` = OpenPGPLimits()

    func check(_ count: Int, against limit: Int, _ what: String) throws(OpenPGPError) {
        guard count <= limit else { throw OpenPGPError(.limitExceeded, "\(what): more than \(limit)") }
    }
}
