import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Overwrites buffers that held key material once they are no longer needed, so a copy does not
/// linger in freed memory. Best effort: swift-crypto's own `SymmetricKey` storage is zeroed by
/// swift-crypto, and a `Data` that was copied elsewhere first keeps that copy.
enum SensitiveBytes {
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { zero($0) }
    }

    static func wipe(_ bytes: inout Data) {
        bytes.withUnsafeMutableBytes { zero($0) }
    }

    /// With the C library's zeroing call that the optimiser may not drop as a dead store.
    private static func zero(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        #if canImport(Darwin)
            _ = memset_s(base, buffer.count, 0, buffer.count)
        #else
            explicit_bzero(base, buffer.count)
        #endif
    }
}
