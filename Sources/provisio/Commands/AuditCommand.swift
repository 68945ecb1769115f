import ArgumentParser
import Foundation
import ProvisioCore
import ProvisioServer

/// `provisio audit verify`: walks the audit log's hash chain and says whether it still holds,
/// or names the first line that does not. The triggers stop the application changing the log;
/// this finds a change made by whoever could drop them.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Check the audit log.", subcommands: [Verify.self])

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify the audit log's hash chain, line by line.",
            discussion: """
                Exit status: 0 the chain holds, and standard output is {"head": "<hash>", "legacy_lines": L, "lines": N}; \
                1 it is broken, and standard output names the first broken line as JSON (its place, id and problem) \
                with one `error: audit_chain_broken: …` line on standard error; 2 the check could not run. \
                Whoever can write the database can rewrite the chain from a changed line to its end: record the head \
                (N:<hash>) somewhere they cannot write and pass it back with --anchor, which also finds lines cut off \
                the end.
                """)

        @Option(
            name: .long,
            help: "An SQLite file path or a postgres:// URL (default: PROVISIO_DATABASE_URL or ./provisio.sqlite).")
        var database: String?

        @Option(name: .long, help: "A line's hash recorded earlier, as SEQUENCE:HASH (an earlier run's lines and head).")
        var anchor: String?

        func run() async throws {
            var verdict: Result<AuditChainReport, AuditChainBreak>?
            try await runReportingErrorsAsync {
                let anchor = try anchor.map { text in
                    guard let anchor = AuditChainVerifier.Anchor(text) else {
                        throw ProvisioError(.invalidArgument, "--anchor must be SEQUENCE:HASH, a line's place and 64 hex digits.")
                    }
                    return anchor
                }
                try await withDatabase(database) { handle in
                    verdict = try await SQLProvisioStore(handle: handle).verifyAuditChain(anchor: anchor)
                }
            }
            switch verdict {
            case .success(let report):
                print(Self.json(["lines": Int(report.lines), "legacy_lines": report.legacyLines, "head": report.head]))
            case .failure(let broken):
                var line: [String: Any] = [
                    "sequence": Int(broken.sequence), "problem": broken.problem.rawValue,
                    "lines_verified": Int(broken.linesVerified),
                ]
                line["id"] = broken.lineID
                print(Self.json(["broken": line]))
                let code = ProvisioError.Code.auditChainBroken.rawValue
                FileHandle.standardError.write(Data("error: \(code): \(broken.message)\n".utf8))
                throw ExitCode(1)
            case nil:
                throw ExitCode(2)
            }
        }

        static func json(_ object: [String: Any]) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            return String(decoding: data ?? Data("{}".utf8), as: UTF8.self)
        }
    }
}
