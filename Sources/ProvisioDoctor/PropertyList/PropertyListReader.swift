import Foundation

/// Reads Info.plists, entitlements and project.pbxproj files: XML, binary (`bplist00`) and
/// OpenStep text, all three through `PropertyListSerialization`, which swift-corelibs-foundation
/// implements on Linux too (its CFPropertyList parsers). A file over the size limit is refused
/// before it is read.
public struct PropertyListReader: Sendable {
    public enum Failure: Error, Sendable, Hashable {
        case tooLarge(byteCount: Int, limit: Int)
        case unreadable(String)
    }

    /// The format a file was written in.
    public enum Format: String, Sendable, Hashable, Codable {
        case xml
        case binary
        case openStep
    }

    public var maximumBytes: Int

    public init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// The property list in the file at `path`, and the format it was in.
    public func read(_ path: String) throws(Failure) -> (value: PlistValue, format: Format) {
        let data = try BoundedFile.read(path, limit: maximumBytes).mapError(Self.failure).get()
        return try parse(data)
    }

    public func parse(_ data: Data) throws(Failure) -> (value: PlistValue, format: Format) {
        guard data.count <= maximumBytes else { throw .tooLarge(byteCount: data.count, limit: maximumBytes) }
        var format = PropertyListSerialization.PropertyListFormat.xml
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        } catch {
            throw .unreadable("it is not a property list in XML, binary or OpenStep format")
        }
        guard let value = PlistValue(foundation: object) else {
            throw .unreadable("it holds a value a property list cannot")
        }
        let kind: Format =
            switch format {
            case .binary: .binary
            case .openStep: .openStep
            default: .xml
            }
        return (value, kind)
    }

    private static func failure(_ error: BoundedFile.Failure) -> Failure {
        switch error {
        case .tooLarge(let count, let limit): .tooLarge(byteCount: count, limit: limit)
        case .unreadable(let reason): .unreadable(reason)
        }
    }
}
