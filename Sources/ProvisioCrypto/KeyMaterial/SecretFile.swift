import Foundation
import ProvisioCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// File primitives for key material. Every file is reached through a descriptor of its
/// directory, and everything is judged on descriptors, never on paths, so nothing can be swapped
/// between a check and a use:
///
/// - the directory must be owned by this user (or root) and not writable by group or others
///   (whoever can write it can rename another file over a key, whatever the key's own mode);
/// - a key file is opened with `O_NOFOLLOW` (a planted link would choose what is read as a key),
///   must be a regular file owned by this user with no group or other bits, and is read from
///   the descriptor that was checked;
/// - files are created with their final mode in one `open` (never readable by others for an
///   instant), creation refuses to overwrite, and replacement is atomic (write, fsync, rename,
///   fsync the directory).
///
/// `role` names the file in errors ("the vault key file"); errors never quote a file's content.
enum SecretFile {
    /// Refuses files larger than this: key files are a few hundred bytes.
    static let maximumSize = 1 << 20

    /// Creates `path` with `mode`; fails if it exists. `changeMode` is `fchmod`, a seam for tests.
    static func create(
        _ path: String, contents: Data, mode: mode_t, role: String = "key file",
        changeMode: (Int32, mode_t) -> Int32 = { fchmod($0, $1) }
    ) throws {
        let directory = try openDirectory(containing: path, role: role)
        defer { close(directory) }
        try create(
            named: name(of: path), in: directory, path: path, contents: contents, mode: mode, role: role, changeMode: changeMode)
    }

    /// Atomically replaces `path` (write a sibling, fsync, rename over it, fsync the directory).
    static func replace(_ path: String, contents: Data, mode: mode_t, role: String = "key file") throws {
        let directory = try openDirectory(containing: path, role: role)
        defer { close(directory) }
        let name = name(of: path)
        // Unique per call, so two writers never share (or unlink) each other's temporary file.
        let temporary = ".\(name).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try create(named: temporary, in: directory, path: path, contents: contents, mode: mode, role: role) { fchmod($0, $1) }
        guard renameat(directory, temporary, directory, name) == 0 else {
            let reason = String(cString: strerror(errno))
            unlinkat(directory, temporary, 0)
            throw ProvisioError(.keysIOFailed, "Cannot replace the \(role) \(path): \(reason).")
        }
        // The rename itself must survive a power cut.
        guard fsync(directory) == 0 else {
            throw ProvisioError(.keysIOFailed, "Cannot flush the directory of the \(role) \(path).")
        }
    }

    /// Reads a secret file after checking its directory and, on the open descriptor, that it is
    /// a regular file owned by this user that group and others can neither read nor write.
    static func readPrivate(_ path: String, role: String = "key file") throws -> Data {
        let directory = try openDirectory(containing: path, role: role)
        defer { close(directory) }
        let fd = openat(directory, name(of: path), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else {
            switch errno {
            case ENOENT:
                throw ProvisioError(.keysMissing, "The \(role) \(path) does not exist; run `provisio keys init --dir DIR` first.")
            case ELOOP, EMLINK:
                throw ProvisioError(.keysSymlink, "The \(role) \(path) is a symbolic link; put the file itself there.")
            default:
                throw ProvisioError(.keysIOFailed, "Cannot open the \(role) \(path): \(String(cString: strerror(errno))).")
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw ProvisioError(.keysIOFailed, "Cannot inspect the \(role) \(path): \(String(cString: strerror(errno))).")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ProvisioError(.keysNotRegularFile, "The \(role) \(path) is not a regular file.")
        }
        guard info.st_uid == geteuid() else {
            throw ProvisioError(
                .keysWrongOwner,
                "The \(role) \(path) belongs to another user (uid \(info.st_uid)); chown it to the server's user.")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw ProvisioError(
                .keysInsecurePermissions,
                "The \(role) \(path) is readable or writable by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod 600 it."
            )
        }
        return try readAll(fd, path: path, role: role)
    }

    /// The file's identity and version as the directory holds it now (nil when absent), for
    /// noticing a replaced file cheaply.
    static func stamp(_ path: String) -> KeyFileStamp? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return KeyFileStamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: modificationNanoseconds(info))
    }

    static func makeDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ProvisioError(.keysIOFailed, "\(path) exists and is not a directory.")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ProvisioError(.keysIOFailed, "Cannot create the directory \(path).")
        }
    }

    // MARK: - Descriptors

    /// Opens the directory that holds `path` and checks it: owned by this user or root, and
    /// not writable by group or others. The caller closes the descriptor.
    static func openDirectory(containing path: String, role: String) throws -> Int32 {
        var directoryPath = (path as NSString).deletingLastPathComponent
        if directoryPath.isEmpty { directoryPath = "." }
        let fd = open(directoryPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT {
                throw ProvisioError(.keysMissing, "The directory of the \(role) \(path) does not exist.")
            }
            throw ProvisioError(
                .keysIOFailed, "Cannot open the directory of the \(role) \(path): \(String(cString: strerror(errno))).")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw ProvisioError(.keysIOFailed, "Cannot inspect the directory of the \(role) \(path).")
        }
        guard info.st_uid == geteuid() || info.st_uid == 0 else {
            close(fd)
            throw ProvisioError(
                .keysInsecureDirectory,
                "The directory of the \(role) \(path) belongs to another user (uid \(info.st_uid)), who could replace the file.")
        }
        guard info.st_mode & 0o022 == 0 else {
            close(fd)
            throw ProvisioError(
                .keysInsecureDirectory,
                "The directory of the \(role) \(path) is writable by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod 700 it."
            )
        }
        return fd
    }

    private static func name(of path: String) -> String { (path as NSString).lastPathComponent }

    private static func create(
        named name: String, in directory: Int32, path: String, contents: Data, mode: mode_t, role: String,
        changeMode: (Int32, mode_t) -> Int32
    ) throws {
        let fd = openat(directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else {
            if errno == EEXIST {
                throw ProvisioError(.keysAlreadyExist, "The \(role) \(path) already exists; refusing to overwrite key material.")
            }
            throw ProvisioError(.keysIOFailed, "Cannot create the \(role) \(path): \(String(cString: strerror(errno))).")
        }
        do {
            defer { close(fd) }
            // umask may have narrowed the mode; set it exactly, and know when that failed.
            guard changeMode(fd, mode) == 0 else {
                throw ProvisioError(
                    .keysIOFailed, "Cannot set the mode of the \(role) \(path): \(String(cString: strerror(errno))).")
            }
            try writeAll(contents, to: fd, path: path, role: role)
            guard fsync(fd) == 0 else {
                throw ProvisioError(.keysIOFailed, "Cannot flush the \(role) \(path): \(String(cString: strerror(errno))).")
            }
        } catch {
            // A half-made key file would make the next `keys init` refuse; remove it.
            unlinkat(directory, name, 0)
            throw error
        }
    }

    private static func writeAll(_ contents: Data, to fd: Int32, path: String, role: String) throws {
        try contents.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    throw ProvisioError(.keysIOFailed, "Cannot write the \(role) \(path): \(String(cString: strerror(errno))).")
                }
                offset += written
            }
        }
    }

    private static func readAll(_ fd: Int32, path: String, role: String) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw ProvisioError(.keysIOFailed, "Cannot read the \(role) \(path): \(String(cString: strerror(errno))).")
            }
            data.append(contentsOf: buffer[0..<count])
            guard data.count <= maximumSize else {
                throw ProvisioError(.keysInvalid, "The \(role) \(path) is too large to be a key file.")
            }
        }
    }

    private static func modificationNanoseconds(_ info: stat) -> Int64 {
        #if canImport(Darwin)
            Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
            Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
    }
}
