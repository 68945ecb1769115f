import Foundation
import ProvisioDoctor

/// A copy of Examples/IssuerApp in a temporary folder, to break one thing in.
struct ExampleCopy {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/IssuerApp").path

    let base: String
    let root: String

    init() throws {
        base = NSTemporaryDirectory() + "provisio-doctor-\(UUID().uuidString)"
        root = base + "/IssuerApp"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.example, toPath: root)
    }

    func path(_ relative: String) -> String { root + "/" + relative }

    func remove() { try? FileManager.default.removeItem(atPath: base) }

    func delete(_ relative: String) throws { try FileManager.default.removeItem(atPath: path(relative)) }

    func write(_ relative: String, _ data: Data) throws {
        try data.write(to: URL(fileURLWithPath: path(relative)))
    }

    func plist(_ relative: String) throws -> PlistValue {
        try PropertyListReader(maximumBytes: 1 << 20).read(path(relative)).value
    }

    /// Rewrites a property list (in XML unless told otherwise) after `edit`.
    func edit(
        _ relative: String, format: PropertyListSerialization.PropertyListFormat = .xml, _ edit: (inout PlistValue) -> Void
    ) throws {
        var value = try plist(relative)
        edit(&value)
        try write(
            relative, try PropertyListSerialization.data(fromPropertyList: value.foundationObject, format: format, options: 0))
    }

    /// Sets (or, with nil, removes) the value at a key path in a property list; the path's
    /// components are separated by "/" because entitlement keys hold dots.
    func set(_ relative: String, _ keyPath: String, _ newValue: PlistValue?) throws {
        try edit(relative) { $0 = $0.setting(keyPath, to: newValue) }
    }

    /// Replaces text in a source file.
    func replace(in relative: String, _ old: String, with new: String) throws {
        let text = try String(contentsOfFile: path(relative), encoding: .utf8)
        precondition(text.contains(old), "\(relative) does not contain \(old)")
        try write(relative, Data(text.replacingOccurrences(of: old, with: new).utf8))
    }

    static let infoPlists = ["App/Info.plist", "NonUIExtension/Info.plist", "UIExtension/Info.plist"]
    static let entitlements = [
        "App/IssuerApp.entitlements", "NonUIExtension/NonUIExtension.entitlements", "UIExtension/UIExtension.entitlements",
    ]
    static let cardArt = "App/Assets.xcassets/DefaultCardArt.dataset/DefaultCardArt.png"

    /// The doctor's codes for this copy.
    func codes(_ doctor: Doctor = Doctor()) throws -> Set<DoctorCode> {
        Set(try doctor.examine(root).findings.map(\.code))
    }
}

extension PlistValue {
    func setting(_ keyPath: String, to newValue: PlistValue?) -> PlistValue {
        let components = keyPath.split(separator: "/", maxSplits: 1).map(String.init)
        var dictionary = self.dictionary ?? [:]
        if components.count == 1 {
            dictionary[components[0]] = newValue
        } else {
            dictionary[components[0]] = (dictionary[components[0]] ?? .dictionary([:])).setting(components[1], to: newValue)
        }
        return .dictionary(dictionary)
    }
}
