import Foundation
import Subprocess

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program to completion and collects what it printed.
///
/// Provisio starts processes only through this module (and `BackgroundProcess`), never through
/// Foundation's `Process`: on Linux, `Process.run()` reads past a buffer while it lists
/// `/proc/self/fd` (swift-corelibs-foundation PR 5472) and crashes now and then in a process with
/// many open descriptors, like the test suite's. swift-subprocess closes the child's inherited
/// descriptors with `posix_spawn_file_actions_addclosefrom_np` instead, and waits without
/// blocking a thread of Swift's cooperative pool. Standard input comes from a file, never a pipe
/// (see `inputFile`).
public enum ChildProcess {
    /// What a finished program left.
    public struct Completed: Sendable {
        public var termination: ProcessTermination
        public var standardOutput: String
        public var standardError: String

        /// The exit status; a signal counts as 128 + its number, as shells report it.
        public var status: Int32 { termination.status }
    }

    /// The most either stream may print before the run fails: large enough for every report
    /// Provisio's commands print, small enough that a runaway child cannot exhaust memory.
    public static let defaultOutputLimit = 32 * 1024 * 1024

    /// Runs `executable` with `arguments`, writes `input` to its standard input and closes it,
    /// and waits for it to exit. `environment` adds to (or, with a nil value, removes from) this
    /// process's environment.
    public static func run(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String?] = [:],
        workingDirectory: String? = nil,
        input: Data = Data(),
        outputLimit: Int = defaultOutputLimit
    ) async throws -> Completed {
        let result = try await Subprocess.run(
            .path(FilePath(executable)),
            arguments: Arguments(arguments),
            environment: Self.environment(environment),
            workingDirectory: workingDirectory.map { FilePath($0) },
            input: .fileDescriptor(try Self.inputFile(input), closeAfterSpawningProcess: true),
            output: .string(limit: outputLimit),
            error: .string(limit: outputLimit)
        )
        return Completed(
            termination: ProcessTermination(result.terminationStatus),
            standardOutput: result.standardOutput ?? "",
            standardError: result.standardError ?? "")
    }

    /// The input as an unlinked temporary file, positioned at its start. Not a pipe: a child
    /// that exits before reading all of a pipe would leave swift-subprocess 1.0.2 with a writer it
    /// never closes (a fatal error in its deinit), and this process with a SIGPIPE.
    static func inputFile(_ input: Data) throws -> FileDescriptor {
        let path = FilePath(NSTemporaryDirectory() + "provisio-stdin-\(UUID().uuidString)")
        let file = try FileDescriptor.open(
            path, .readWrite, options: [.create, .exclusiveCreate], permissions: .ownerReadWrite)
        do {
            _ = unlink(path.string)
            _ = try file.writeAll(input)
            _ = try file.seek(offset: 0, from: .start)
            return file
        } catch {
            try? file.close()
            throw error
        }
    }

    static func environment(_ changes: [String: String?]) -> Subprocess.Environment {
        guard !changes.isEmpty else { return .inherit }
        var keyed: [Subprocess.Environment.Key: String?] = [:]
        for (name, value) in changes { keyed[Subprocess.Environment.Key(stringLiteral: name)] = value }
        return .inherit.updating(keyed)
    }
}

extension ProcessTermination {
    init(_ status: TerminationStatus) {
        switch status {
        case .exited(let code): self = .exited(Int32(truncatingIfNeeded: code))
        case .signaled(let signal): self = .signaled(Int32(truncatingIfNeeded: signal))
        }
    }
}
