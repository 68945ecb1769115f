import Foundation
import Testing

/// Foundation's `Process` must not come back: on Linux its `run()` crashes now and then in a
/// process with many open descriptors (it killed a CI run of this suite). Every child process
/// goes through ProvisioProcess.
@Suite("Child processes go through ProvisioProcess")
struct NoFoundationProcessTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("no Swift file in Sources, Tests or Examples creates a Foundation Process")
    func noFoundationProcess() throws {
        // Spelled in pieces so that this file does not match itself.
        let type = "Pro" + "cess"
        let pattern = try Regex(#"(^|[^A-Za-z0-9_.])"# + type + #"(\(\)|\.run\(|\.launchedProcess\(|\s*\{|\s*=)"#)
        var offenders: [String] = []
        var scanned = 0
        for folder in ["Sources", "Tests", "Examples"] {
            let base = Self.root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift" else { continue }
                scanned += 1
                let text = try String(contentsOf: file, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.contains(pattern) {
                    offenders.append("\(file.path.dropFirst(Self.root.path.count + 1)):\(number + 1): \(line)")
                }
            }
        }
        #expect(scanned > 200, "the scan found the sources")
        #expect(offenders.isEmpty, "use ChildProcess or BackgroundProcess:\n\(offenders.joined(separator: "\n"))")
    }
}
