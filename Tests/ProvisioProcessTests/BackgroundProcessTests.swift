import Foundation
import ProvisioProcess
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Background processes")
struct BackgroundProcessTests {
    /// A log file in the temporary folder; each test removes its own.
    static func logFile() -> String {
        NSTemporaryDirectory() + "provisio-background-\(UUID().uuidString).log"
    }

    /// Reads the log until `text` shows up (the child announces itself there).
    static func waitFor(_ text: String, in path: String) async throws {
        for _ in 0..<500 {
            if let log = try? String(contentsOfFile: path, encoding: .utf8), log.contains(text) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("\(text) never appeared in \(path)")
    }

    @Test("output and errors go to the log; stop sends SIGTERM and returns the exit the child chose")
    func stopIsGraceful() async throws {
        let log = Self.logFile()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let child = try await BackgroundProcess.start(
            "/bin/sh", arguments: ["-c", "trap 'echo stopping >&2; exit 7' TERM; echo ready; while :; do sleep 0.05; done"],
            logFile: log)
        try await Self.waitFor("ready", in: log)
        #expect(child.isRunning)
        #expect(await child.stop() == .exited(7))
        #expect(!child.isRunning)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "ready\nstopping\n")
        #expect(child.signal(SIGTERM) == false, "a finished child's pid is not signalled")
    }

    @Test("a child that ignores SIGTERM is killed after the grace period")
    func stopEscalates() async throws {
        let log = Self.logFile()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let child = try await BackgroundProcess.start(
            "/bin/sh", arguments: ["-c", "trap '' TERM; echo ready; while :; do sleep 0.05; done"], logFile: log)
        try await Self.waitFor("ready", in: log)
        #expect(await child.stop(grace: .milliseconds(300)) == .signaled(SIGKILL))
    }

    @Test("a child that exits on its own is seen as ended, with its status")
    func exitsOnItsOwn() async throws {
        let log = Self.logFile()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let child = try await BackgroundProcess.start("/bin/sh", arguments: ["-c", "exit 4"], logFile: log)
        #expect(await child.waitForExit() == .exited(4))
        #expect(!child.isRunning)
        #expect(child.termination == .exited(4))
    }

    @Test("a child nobody stops is killed when its owner lets go of it")
    func releasedChildIsKilled() async throws {
        let log = Self.logFile()
        defer { try? FileManager.default.removeItem(atPath: log) }
        var child: BackgroundProcess? = try await BackgroundProcess.start(
            "/bin/sh", arguments: ["-c", "echo ready; while :; do sleep 0.05; done"], logFile: log)
        try await Self.waitFor("ready", in: log)
        let pid = try #require(child?.pid)
        child = nil
        // Killed, then reaped by the run that started it: the pid stops naming our child.
        var gone = false
        for _ in 0..<500 where !gone {
            gone = kill(pid, 0) != 0 && errno == ESRCH
            if !gone { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(gone, "the released child \(pid) is still running")
    }
}
