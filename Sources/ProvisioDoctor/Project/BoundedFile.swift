import Foundation

/// Reads a whole file only when it is no larger than a limit: the doctor examines folders it
/// did not make, and a multi-gigabyte "Info.plist" must not be read into memory.
enum BoundedFile {
    enum Failure: Error, Sendable, Hashable {
        case tooLarge(byteCount: Int, limit: Int)
        case unreadable(String)
    }

    /// The file's size in bytes, or nil when it is not a regular file.
    static func size(_ path: String) -> Int? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        return (attributes[.size] as? NSNumber)?.intValue
    }

    static func read(_ path: String, limit: Int) -> Result<Data, Failure> {
        guard let size = size(path) else { return .failure(.unreadable("it is not a readable file")) }
        guard size <= limit else { return .failure(.tooLarge(byteCount: size, limit: limit)) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(.unreadable("it cannot be opened"))
        }
        defer { try? handle.close() }
        // Reads one byte past the limit: a file that grew after the size check is still refused.
        let data = (try? handle.read(upToCount: limit + 1)) ?? Data()
        guard data.count <= limit else { return .failure(.tooLarge(byteCount: data.count, limit: limit)) }
        return .success(data)
    }

    /// The first `count` bytes (fewer when the file is shorter).
    static func prefix(_ path: String, count: Int) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: count) ?? Data()
    }
}
