import Yams

/// error-codes.yaml read and checked: every code once, snake_case, with a status a server can
/// answer, in the order the file lists them (modules, then codes).
struct ErrorCatalog {
    struct Entry {
        let module: String
        let code: String
        let status: Int
        let doc: String?
    }

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    let entries: [Entry]

    /// The statuses a code may declare, by the name of `ProvisioError.Status`'s case.
    static let statusNames: [Int: String] = [
        400: "badRequest", 401: "unauthorized", 403: "forbidden", 404: "notFound", 405: "methodNotAllowed",
        408: "requestTimeout", 409: "conflict", 413: "contentTooLarge", 422: "unprocessableContent",
        429: "tooManyRequests", 500: "internalServerError", 502: "badGateway", 503: "serviceUnavailable",
    ]

    init(yaml: String) throws {
        guard let root = try Yams.compose(yaml: yaml)?.mapping else {
            throw Invalid(description: "error-codes.yaml: the top level is not a mapping of modules")
        }
        var entries: [Entry] = []
        var seen: [String: String] = [:]
        for (moduleNode, codesNode) in root {
            guard let module = moduleNode.string, let codes = codesNode.mapping else {
                throw Invalid(description: "error-codes.yaml: \(moduleNode) is not a module with a mapping of codes")
            }
            for (codeNode, fields) in codes {
                guard let code = codeNode.string, Self.isSnakeCase(code) else {
                    throw Invalid(description: "error-codes.yaml: \(module): \(codeNode) is not a snake_case code")
                }
                if let other = seen[code] {
                    throw Invalid(description: "error-codes.yaml: \(code) is listed under \(other) and \(module)")
                }
                seen[code] = module
                let known = Set(fields.mapping?.keys.compactMap(\.string) ?? [])
                guard known.isSubset(of: ["status", "doc"]) else {
                    throw Invalid(description: "error-codes.yaml: \(code) has unknown fields \(known.subtracting(["status", "doc"]).sorted())")
                }
                guard let status = fields["status"]?.int, Self.statusNames[status] != nil else {
                    throw Invalid(description: "error-codes.yaml: \(code) needs a status among \(Self.statusNames.keys.sorted())")
                }
                entries.append(Entry(module: module, code: code, status: status, doc: fields["doc"]?.string))
            }
        }
        self.entries = entries
    }

    var modules: [String] {
        var seen: Set<String> = []
        return entries.map(\.module).filter { seen.insert($0).inserted }
    }

    func entry(_ code: String) -> Entry? { entries.first { $0.code == code } }

    private static func isSnakeCase(_ code: String) -> Bool {
        guard let first = code.utf8.first, (0x61...0x7A).contains(first), code.utf8.last != 0x5F else { return false }
        return code.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }
}
