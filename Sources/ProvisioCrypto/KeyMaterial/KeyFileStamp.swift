/// Which version of a key file the directory holds: its inode and device (a replacement by
/// rename is a new inode), size and modification time. Two equal stamps mean "nothing was
/// written since", cheaply, without reading the secret.
public struct KeyFileStamp: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    /// Nanoseconds since 1970.
    let modified: Int64
}
