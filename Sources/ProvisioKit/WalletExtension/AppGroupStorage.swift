import Foundation
import ProvisioCore

/// `ExtensionStorage` in an App Group container: `Provisio/extension-configuration.json`,
/// `Provisio/pending-adds.json` and `Provisio/art/<reference>`. The configuration is decoded once
/// and reused while the file is unchanged, since `status` must answer within a millisecond.
public struct AppGroupStorage: ExtensionStorage {
    public let directory: URL
    private let cache = ConfigurationCache()

    /// Uses `container`, which must exist (an App Group container always does).
    public init(container: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: container.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ProvisioError(.appGroupUnavailable, "The App Group container \(container.path) does not exist.")
        }
        self.directory = container.appendingPathComponent("Provisio", isDirectory: true)
    }

    #if canImport(Darwin)
        /// The container of `appGroupIdentifier`; a clear error when the entitlement is missing.
        public init(appGroupIdentifier: String) throws {
            guard
                let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroupIdentifier)
            else {
                throw ProvisioError(
                    .appGroupUnavailable,
                    "No container for the App Group '\(appGroupIdentifier)': add it to the app's and both extensions' entitlements."
                )
            }
            try self.init(container: container)
        }
    #endif

    private var configurationFile: URL { directory.appendingPathComponent("extension-configuration.json") }
    private var ledgerFile: URL { directory.appendingPathComponent("pending-adds.json") }

    public func configuration() throws -> ExtensionConfiguration? {
        let attributes = try? FileManager.default.attributesOfItem(atPath: configurationFile.path)
        guard let attributes else { return nil }
        let stamp = ConfigurationCache.Stamp(
            modified: attributes[.modificationDate] as? Date, size: (attributes[.size] as? NSNumber)?.intValue ?? -1,
            file: (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? -1)
        if let cached = cache.value(for: stamp) { return cached }
        let decoded = try ExtensionConfiguration.decode(from: try read(configurationFile))
        cache.store(decoded, for: stamp)
        return decoded
    }

    public func save(_ configuration: ExtensionConfiguration) throws {
        try configuration.validate()
        try write(try configuration.encoded(), to: configurationFile)
    }

    public func ledger() throws -> PendingAddLedger {
        guard FileManager.default.fileExists(atPath: ledgerFile.path) else { return PendingAddLedger() }
        return try PendingAddLedger.decode(from: try read(ledgerFile))
    }

    public func save(_ ledger: PendingAddLedger) throws {
        try write(try ledger.encoded(), to: ledgerFile)
    }

    public func art(named reference: String) throws -> Data? {
        let file = try artFile(reference)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return try read(file)
    }

    public func saveArt(_ data: Data, named reference: String) throws {
        try write(data, to: try artFile(reference))
    }

    /// Art references are plain file names: nothing can point outside the container.
    private func artFile(_ reference: String) throws -> URL {
        guard !reference.isEmpty, !reference.contains("/"), !reference.hasPrefix(".") else {
            throw ProvisioError(.extensionCardInvalidArtReference, "The art reference '\(reference)' is not a plain file name.")
        }
        return directory.appendingPathComponent("art", isDirectory: true).appendingPathComponent(reference)
    }

    private func read(_ file: URL) throws -> Data {
        do {
            return try Data(contentsOf: file)
        } catch {
            throw ProvisioError(.appGroupUnavailable, "\(file.lastPathComponent) in the App Group cannot be read.")
        }
    }

    /// Written atomically, so an extension never reads half a file the app is writing.
    private func write(_ data: Data, to file: URL) throws {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file, options: .atomic)
        } catch {
            throw ProvisioError(.appGroupUnavailable, "\(file.lastPathComponent) cannot be written to the App Group.")
        }
    }
}

/// The last decoded configuration and the file state it came from.
final class ConfigurationCache: Sendable {
    struct Stamp: Equatable, Sendable {
        var modified: Date?
        var size: Int
        /// An atomic write replaces the file, so a new file number means new contents.
        var file: Int
    }

    private let entry = Locked<(stamp: Stamp, configuration: ExtensionConfiguration)?>(nil)

    func value(for stamp: Stamp) -> ExtensionConfiguration? {
        entry.withLock { entry in
            guard let entry, entry.stamp == stamp else { return nil }
            return entry.configuration
        }
    }

    func store(_ configuration: ExtensionConfiguration, for stamp: Stamp) {
        entry.withLock { $0 = (stamp, configuration) }
    }
}
