import CZlib

/// DEFLATE through the system's zlib, in the two framings OpenPGP's compressed packet uses:
/// raw (ZIP, algorithm 1) and zlib-wrapped (ZLIB, algorithm 2). Inflating stops one byte past
/// the caller's cap, so a small packet that expands to gigabytes is refused, not expanded.
enum Deflate {
    /// zlib's window bits: negative selects a raw stream, positive a zlib-wrapped one.
    private static func windowBits(_ algorithm: OpenPGPCompression) -> Int32 {
        algorithm == .zip ? -15 : 15
    }

    static func compress(_ input: [UInt8], _ algorithm: OpenPGPCompression) throws(OpenPGPError) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        let status = deflateInit2_(
            stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, windowBits(algorithm), 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw OpenPGPError(.cryptoFailure, "zlib could not start compressing (status \(status))") }
        defer { deflateEnd(stream) }
        // deflateBound is an upper limit for one Z_FINISH call: one pass, no growing buffer.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, UInt(input.count))))
        let finished = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.pointee.avail_in = UInt32(source.count)
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = UInt32(target.count)
                return CZlib.deflate(stream, Z_FINISH)
            }
        }
        guard finished == Z_STREAM_END else { throw OpenPGPError(.cryptoFailure, "zlib could not compress (status \(finished))") }
        output.removeSubrange(Int(stream.pointee.total_out)...)
        return output
    }

    static func decompress(
        _ input: ArraySlice<UInt8>, _ algorithm: OpenPGPCompression, maximumOutput: Int
    ) throws(OpenPGPError) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        let status = inflateInit2_(stream, windowBits(algorithm), ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw OpenPGPError(.decompressionFailed, "zlib could not start (status \(status))") }
        defer { inflateEnd(stream) }
        let input = Array(input)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 32 * 1024)
        return try input.withUnsafeBufferPointer { (source) throws(OpenPGPError) -> [UInt8] in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.pointee.avail_in = UInt32(source.count)
            while true {
                let room = min(chunk.count, maximumOutput - output.count + 1)
                let (result, produced) = chunk.withUnsafeMutableBufferPointer { target in
                    stream.pointee.next_out = target.baseAddress
                    stream.pointee.avail_out = UInt32(room)
                    let result = CZlib.inflate(stream, Z_NO_FLUSH)
                    return (result, room - Int(stream.pointee.avail_out))
                }
                guard output.count + produced <= maximumOutput else {
                    throw OpenPGPError(.limitExceeded, "decompressed data: more than \(maximumOutput) bytes")
                }
                output.append(contentsOf: chunk[0..<produced])
                switch result {
                case Z_STREAM_END: return output
                case Z_OK: continue
                case Z_BUF_ERROR: throw OpenPGPError(.decompressionFailed, "the compressed data ends before its stream does")
                default: throw OpenPGPError(.decompressionFailed, "the compressed data does not inflate (zlib status \(result))")
                }
            }
        }
    }
}
