import Foundation
import ProvisioCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on a lock file next to the key files, held around every
/// read-modify-write of `vault-keys.json`, so two rotations at once cannot lose a key. The lock
/// file is never removed (removing it would let two writers lock two different files), and the
/// lock goes with the descriptor, so a writer that dies releases it.
enum KeyFileLock {
    static let fileName = "vault-keys.lock"

    /// Runs `body` holding the lock; waits (blocking the thread) for another holder.
    static func withLock<T>(in directory: String, _ body: () throws -> T) throws -> T {
        let fd = try open(in: directory)
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure(directory) }
        }
        return try body()
    }

    /// Runs `body` holding the lock; waits by polling, so no thread of the cooperative pool
    /// blocks while another task holds it.
    static func withLockAsync<T>(in directory: String, _ body: () async throws -> T) async throws -> T {
        let fd = try open(in: directory)
        defer { close(fd) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw failure(directory) }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await body()
    }

    private static func open(in directory: String) throws -> Int32 {
        let directoryFD = try SecretFile.openDirectory(
            containing: (directory as NSString).appendingPathComponent(fileName), role: "key lock file")
        defer { close(directoryFD) }
        let fd = openat(directoryFD, fileName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(directory) }
        return fd
    }

    private static func failure(_ directory: String) -> ProvisioError {
        ProvisioError(
            .keysIOFailed, "Cannot lock the key files in \(directory): \(String(cString: strerror(errno))).")
    }
}
