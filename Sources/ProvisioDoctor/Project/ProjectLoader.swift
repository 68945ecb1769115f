import Foundation

/// Decides what PATH is and reads it: an .xcodeproj (or its project.pbxproj), a built .app, or
/// a folder — which is read through the .xcodeproj directly inside it when there is exactly one.
/// An .ipa is a zip archive; the doctor does not open archives and says how to get the .app out.
struct ProjectLoader {
    let limits: DoctorLimits

    func load(_ path: String) throws(DoctorError) -> WalletProject {
        let manager = FileManager.default
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
            throw DoctorError(.inputNotFound, "\(path) does not exist.")
        }
        if absolute.lowercased().hasSuffix(".ipa") || (!isDirectory.boolValue && Self.isZip(absolute)) {
            throw DoctorError(
                .inputIPAUnsupported,
                "\(path) is an .ipa (a zip archive), which the doctor does not open. Unzip it and examine the app inside: `unzip -q app.ipa -d app && provisio doctor app/Payload/*.app`."
            )
        }
        if !isDirectory.boolValue {
            if (absolute as NSString).lastPathComponent == "project.pbxproj" {
                return try XcodeProjectDiscovery(limits: limits).discover((absolute as NSString).deletingLastPathComponent)
            }
            throw DoctorError(
                .inputUnsupported,
                "\(path) is a file; give a folder holding the app and its extensions, an .xcodeproj or a built .app.")
        }
        if absolute.hasSuffix(".xcodeproj") {
            return try XcodeProjectDiscovery(limits: limits).discover(absolute)
        }
        if absolute.hasSuffix(".app") {
            return try AppBundleDiscovery(limits: limits).discover(absolute)
        }
        if absolute.hasSuffix(".xcworkspace") {
            throw DoctorError(.inputUnsupported, "\(path) is a workspace; give the .xcodeproj of the app instead.")
        }
        let projects = ((try? manager.contentsOfDirectory(atPath: absolute)) ?? []).filter { $0.hasSuffix(".xcodeproj") }
        if projects.count == 1 {
            return try XcodeProjectDiscovery(limits: limits).discover(absolute + "/" + projects[0])
        }
        return try FolderDiscovery(limits: limits).discover(absolute)
    }

    static func isZip(_ path: String) -> Bool {
        BoundedFile.prefix(path, count: 4) == Data([0x50, 0x4B, 0x03, 0x04])
    }
}
