import Foundation
import ProvisioCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// File primitives for key material: files are created with their final mode in one `open`
/// (never world-readable for an instant), creation refuses to overwrite, replacement is atomic.
enum SecretFile {
    /// Creates `path` with `mode`; fails if it exists.
    static func create(_ path: String, contents: Data, mode: mode_t) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard fd >= 0 else {
            if errno == EEXIST {
                throw ProvisioError(.keysAlreadyExist, "\(path) already exists; refusing to overwrite key material.")
            }
            throw ProvisioError(.keysIOFailed, "Cannot create \(path): \(String(cString: strerror(errno))).")
        }
        defer { close(fd) }
        // umask may have narrowed the mode; set it exactly.
        fchmod(fd, mode)
        try contents.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                guard written > 0 else {
                    throw ProvisioError(.keysIOFailed, "Cannot write \(path): \(String(cString: strerror(errno))).")
                }
                offset += written
            }
        }
        guard fsync(fd) == 0 else {
            throw ProvisioError(.keysIOFailed, "Cannot flush \(path): \(String(cString: strerror(errno))).")
        }
    }

    /// Atomically replaces `path` (write a sibling, then rename over it).
    static func replace(_ path: String, contents: Data, mode: mode_t) throws {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        try create(temporary, contents: contents, mode: mode)
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw ProvisioError(.keysIOFailed, "Cannot replace \(path): \(String(cString: strerror(errno))).")
        }
    }

    /// Reads a secret file, refusing it when group or others may read or write it.
    static func readPrivate(_ path: String) throws -> Data {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ProvisioError(.keysMissing, "\(path) does not exist; run `provisio keys init --dir DIR` first.")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw ProvisioError(
                .keysInsecurePermissions,
                "\(path) is readable or writable by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod 600 it."
            )
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProvisioError(.keysIOFailed, "Cannot read \(path).")
        }
        return data
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
}

extension ProvisioError.Code {
    public static let keysAlreadyExist = Self("keys_already_exist", status: .internalServerError)
    public static let keysMissing = Self("keys_missing", status: .internalServerError)
    public static let keysInvalid = Self("keys_invalid", status: .internalServerError)
    public static let keysInsecurePermissions = Self("keys_insecure_permissions", status: .internalServerError)
    public static let keysIOFailed = Self("keys_io_failed", status: .internalServerError)
}
