import Foundation
import ProvisioProcess
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A test run or a benchmark that crashes must not leave its servers running.
@Suite struct OrphanedServerTests {
    /// Whether `pid` no longer runs (gone, or a zombie nobody has reaped yet).
    static func ended(_ pid: pid_t) -> Bool {
        if kill(pid, 0) != 0 { return true }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") ?? true
    }

    @Test(arguments: ["serve", "sandbox"])
    func aServerWhoseParentDiesStopsOnItsOwn(_ kind: String) async throws {
        let base = CLIRunner.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(try await CLIRunner.run(["keys", "init", "--dir", base + "/keys"]).status == 0)
        let command: String
        if kind == "serve" {
            command = "serve --host 127.0.0.1 --port 0 --database \(base)/p.sqlite --keys \(base)/keys"
        } else {
            let (_, _, networkKey) = try await CLIRunner.createTenant(name: "Orphan Bank", database: base + "/p.sqlite")
            command =
                "sandbox serve --port 0 --issuer-url http://127.0.0.1:9 --network-key \(networkKey)"
                + " --tav-public-key \(base)/keys/tav-public-key.pem --ca-dir \(base)/ca --api-key sbx_key_orphan_test"
        }
        // A parent shell starts the server as its supervisor would, waits until it listens, and
        // dies without stopping it.
        let parent = try await ChildProcess.run(
            "/bin/sh",
            arguments: [
                "-c",
                """
                PROVISIO_PARENT_PID=$$ "\(CLIRunner.executable.path)" \(command) > "\(base)/server.log" 2>&1 &
                echo $!
                for i in $(seq 600); do
                    grep -q "listening on" "\(base)/server.log" && exit 0
                    kill -0 $! || exit 1
                    sleep 0.1
                done
                exit 1
                """,
            ])
        let log = { (try? String(contentsOfFile: base + "/server.log", encoding: .utf8)) ?? "" }
        #expect(parent.status == 0, "the server never listened: \(log())")
        let pid = try #require(pid_t(parent.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        var stopped = false
        for _ in 0..<300 where !stopped {
            stopped = Self.ended(pid)
            if !stopped { try await Task.sleep(for: .milliseconds(100)) }
        }
        if !stopped { kill(pid, SIGKILL) }
        #expect(stopped, "the orphaned server \(pid) still runs: \(log())")
        #expect(log().contains("the parent process is gone"), "\(log())")
    }
}
