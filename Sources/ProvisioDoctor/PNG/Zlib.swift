import CZlib

/// zlib (RFC 1950) decompression and CRC-32 over the system's zlib, for PNG pixel data (an IDAT
/// stream is one zlib stream) and PNG chunks.
///
/// The output is capped: a "zip bomb" IDAT — a few kilobytes that inflate to gigabytes — is
/// refused after one byte past the cap, never inflated whole. zlib checks the header and the
/// Adler-32 checksum itself.
enum Zlib {
    enum Failure: Error, Sendable, Hashable {
        /// The stream ends before its last block and its Adler-32 checksum.
        case truncated
        /// The stream decodes, but its Adler-32 checksum does not match what it decoded to.
        case checksumMismatch
        /// The stream is malformed (with zlib's reason, e.g. "invalid block type").
        case corrupt(String)
        /// The output would exceed the cap.
        case outputTooLarge(limit: Int)
    }

    /// Decodes a zlib stream into at most `maximumOutput` bytes. Bytes after the stream's end
    /// are ignored.
    static func inflate(_ input: [UInt8], maximumOutput: Int) throws(Failure) -> [UInt8] {
        // zlib keeps a pointer back to its z_stream and refuses calls made through another one,
        // so the stream lives at one address from inflateInit_ to inflateEnd.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        let started = inflateInit_(stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard started == Z_OK else { throw .corrupt("zlib could not start (status \(started))") }
        defer { inflateEnd(stream) }
        let result = input.withUnsafeBufferPointer { input in
            run(stream, input: input, maximumOutput: maximumOutput)
        }
        return try result.get()
    }

    private static func run(
        _ stream: UnsafeMutablePointer<z_stream>, input: UnsafeBufferPointer<UInt8>, maximumOutput: Int
    ) -> Result<[UInt8], Failure> {
        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
        defer { scratch.deallocate() }
        var output: [UInt8] = []
        output.reserveCapacity(min(maximumOutput, max(input.count * 4, 1024)))
        var handedIn = 0
        while true {
            if stream.pointee.avail_in == 0, handedIn < input.count, let base = input.baseAddress {
                // avail_in is 32 bits wide: hand the input over in pieces that fit.
                let count = min(input.count - handedIn, Int(UInt32.max))
                stream.pointee.next_in = UnsafeMutablePointer(mutating: base + handedIn)
                stream.pointee.avail_in = UInt32(count)
                handedIn += count
            }
            // Room for one byte past the cap at most: zlib writing it proves the stream too large.
            let room = min(scratch.count, maximumOutput - output.count + 1)
            stream.pointee.next_out = scratch.baseAddress
            stream.pointee.avail_out = UInt32(room)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            let produced = room - Int(stream.pointee.avail_out)
            guard output.count + produced <= maximumOutput else { return .failure(.outputTooLarge(limit: maximumOutput)) }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[0..<produced]))
            switch status {
            case Z_STREAM_END:
                return .success(output)
            case Z_OK:
                continue
            case Z_BUF_ERROR:
                // No progress with room to write: zlib needs input there is no more of.
                return .failure(.truncated)
            case Z_DATA_ERROR:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
                // zlib's wording for a failed Adler-32 check, unchanged since zlib 1.0.
                return .failure(reason == "incorrect data check" ? .checksumMismatch : .corrupt(reason))
            case Z_NEED_DICT:
                return .failure(.corrupt("the stream needs a preset dictionary"))
            case Z_MEM_ERROR:
                return .failure(.corrupt("zlib ran out of memory"))
            default:
                return .failure(.corrupt("zlib failed (status \(status))"))
            }
        }
    }

    /// The CRC-32 of `bytes` (ISO 3309, the checksum of PNG chunks).
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        let crc = bytes.withUnsafeBufferPointer { CZlib.crc32_z(0, $0.baseAddress, .init($0.count)) }
        return UInt32(truncatingIfNeeded: crc)
    }
}
