import Foundation

/// Walks a folder breadth-first within `DoctorLimits`: at most `maximumDepth` levels and
/// `maximumEntries` entries, never following a symbolic link (a link back up would loop), and
/// skipping build products and dependency checkouts, which are not the issuer's configuration.
struct FileWalker {
    struct Walk: Sendable {
        var files: [String] = []
        /// Folders not entered because they are deeper than the limit.
        var tooDeep: [String] = []
    }

    static let skippedFolders: Set<String> = [
        ".git", ".build", ".swiftpm", "DerivedData", "Pods", "Carthage", "node_modules", "build", "xcuserdata",
    ]

    let limits: DoctorLimits

    /// Every regular file below `root` (absolute paths, sorted).
    func walk(_ root: String) throws(DoctorError) -> Walk {
        var walk = Walk()
        var queue: [(path: String, depth: Int)] = [(root, 0)]
        var entries = 0
        var index = 0
        let manager = FileManager.default
        while index < queue.count {
            let (folder, depth) = queue[index]
            index += 1
            guard let names = try? manager.contentsOfDirectory(atPath: folder) else { continue }
            for name in names.sorted() {
                entries += 1
                guard entries <= limits.maximumEntries else {
                    throw DoctorError(
                        .inputTooLarge,
                        "The folder holds more than \(limits.maximumEntries) files and folders; point the doctor at the app's project folder."
                    )
                }
                let path = folder + "/" + name
                guard let type = (try? manager.attributesOfItem(atPath: path))?[.type] as? FileAttributeType else {
                    continue
                }
                if type == .typeDirectory {
                    guard !Self.skippedFolders.contains(name) else { continue }
                    if depth + 1 > limits.maximumDepth {
                        walk.tooDeep.append(path)
                    } else {
                        queue.append((path, depth + 1))
                    }
                } else if type == .typeRegular {
                    walk.files.append(path)
                }
            }
        }
        walk.files.sort()
        return walk
    }
}
