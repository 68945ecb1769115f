import Foundation

// generate-error-codes CATALOG DOCUMENT OUTPUT
//
// Reads error-codes.yaml (CATALOG) and the served OpenAPI document (DOCUMENT), and writes under
// OUTPUT, as paths relative to the package root:
//   Sources/<module>/Generated/ErrorCodes.swift     for every module the catalog names
//   Sources/ProvisioHTTP/Generated/ErrorStatuses.swift
//   DOCUMENT (its path as given) with the ErrorCode schema rewritten
// Tools/generate-wire.sh copies them into place or compares them (--check).
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: generate-error-codes CATALOG DOCUMENT OUTPUT\n".utf8))
    exit(2)
}
let (catalogPath, documentPath, output) = (arguments[arguments.startIndex], arguments[arguments.startIndex + 1], arguments[arguments.startIndex + 2])

func write(_ text: String, to relative: String) throws {
    let url = URL(fileURLWithPath: output).appendingPathComponent(relative)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
}

do {
    let catalog = try ErrorCatalog(yaml: try String(contentsOfFile: catalogPath, encoding: .utf8))
    for module in catalog.modules {
        try write(SwiftFiles.constants(of: module, in: catalog), to: "Sources/\(module)/Generated/ErrorCodes.swift")
    }
    try write(SwiftFiles.statuses(in: catalog), to: "Sources/ProvisioHTTP/Generated/ErrorStatuses.swift")
    let document = try String(contentsOfFile: documentPath, encoding: .utf8)
    try write(try DocumentErrorCodes.rewrite(document, catalog: catalog), to: documentPath)
    print("\(catalog.entries.count) codes in \(catalog.modules.count) modules")
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
