#if os(Linux)
    import Foundation

    /// Finds the PassKit (`PK…`), UIKit (`UI…`), Core Graphics (`CG…`) and LocalAuthentication
    /// (`LA…`) names that Swift sources use, outside comments and imports.
    enum FrameworkNameScanner {
        private static let name = try! NSRegularExpression(pattern: #"\b(?:PK|UI|LA|CG)[A-Z][A-Za-z0-9_]*\b"#)

        /// Each name, with the files (relative to `root`) that use it.
        static func names(inSwiftFilesUnder directories: [String], root: URL) throws -> [String: Set<String>] {
            var found: [String: Set<String>] = [:]
            for directory in directories {
                let base = root.appendingPathComponent(directory)
                guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
                for case let file as URL in files where file.pathExtension == "swift" {
                    let relative = directory + "/" + file.path.dropFirst(base.path.count + 1)
                    for name in try names(in: String(contentsOf: file, encoding: .utf8)) {
                        found[name, default: []].insert(relative)
                    }
                }
            }
            return found
        }

        static func names(in source: String) -> Set<String> {
            var names: Set<String> = []
            for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
                let code = String(line.components(separatedBy: "//")[0])
                if code.trimmingCharacters(in: .whitespaces).hasPrefix("import ") { continue }
                let range = NSRange(code.startIndex..., in: code)
                for match in name.matches(in: code, range: range) {
                    if let found = Range(match.range, in: code) { names.insert(String(code[found])) }
                }
            }
            return names
        }
    }
#endif
