import Foundation
import ProvisioProcess
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Child processes")
struct ChildProcessTests {
    @Test("standard input reaches the child; its two streams come back apart; the status is its exit")
    func roundTrip() async throws {
        let completed = try await ChildProcess.run(
            "/bin/sh", arguments: ["-c", "cat; echo to-stderr >&2; exit 3"], input: Data("from stdin".utf8))
        #expect(completed.standardOutput == "from stdin")
        #expect(completed.standardError == "to-stderr\n")
        #expect(completed.termination == .exited(3))
        #expect(completed.status == 3)
    }

    /// With a pipe, swift-subprocess 1.0.2 hit a fatal error when the child exited first (a
    /// writer never closed), and the unread rest could raise SIGPIPE here.
    @Test("children that exit without reading their input, or read a little of it, end normally")
    func unreadInput() async throws {
        let megabyte = Data(repeating: 0x61, count: 1 << 20)
        for _ in 0..<10 {
            #expect(try await ChildProcess.run("/bin/sh", arguments: ["-c", "exit 0"], input: megabyte).status == 0)
            let some = try await ChildProcess.run("/bin/sh", arguments: ["-c", "head -c 5"], input: megabyte)
            #expect(some.standardOutput == "aaaaa" && some.status == 0)
        }
    }

    @Test("a child killed by a signal reports the signal, and 128 + it as its status")
    func signalled() async throws {
        let completed = try await ChildProcess.run("/bin/sh", arguments: ["-c", "kill -9 $$"])
        #expect(completed.termination == .signaled(SIGKILL))
        #expect(completed.status == 128 + SIGKILL)
    }

    @Test("the environment is this process's, changed as asked")
    func environment() async throws {
        setenv("PROVISIO_PROCESS_TEST_REMOVED", "present", 1)
        let completed = try await ChildProcess.run(
            "/bin/sh", arguments: ["-c", "echo \"$PROVISIO_PROCESS_TEST_ADDED|${PROVISIO_PROCESS_TEST_REMOVED:-gone}|$HOME\""],
            environment: ["PROVISIO_PROCESS_TEST_ADDED": "added", "PROVISIO_PROCESS_TEST_REMOVED": nil])
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        #expect(completed.standardOutput == "added|gone|\(home)\n")
    }

    @Test("output past the limit fails the run instead of filling memory")
    func outputLimit() async throws {
        await #expect(throws: (any Error).self) {
            _ = try await ChildProcess.run("/bin/sh", arguments: ["-c", "head -c 100000 /dev/zero"], outputLimit: 1000)
        }
    }

    @Test("a missing program is an error, not a crash")
    func missingProgram() async throws {
        await #expect(throws: (any Error).self) {
            _ = try await ChildProcess.run("/nonexistent/provisio-no-such-program")
        }
    }

    /// The condition Foundation's `Process.run()` crashed under on Linux (a suite with over a
    /// thousand descriptors open, several spawns at once): children start, and none inherits
    /// this process's descriptors (a test database or a listening socket must not leak into a
    /// child server).
    @Test("many descriptors open and spawns in parallel: no child inherits them")
    func manyDescriptorsNoneInherited() async throws {
        var opened: [Int32] = []
        defer { opened.forEach { close($0) } }
        for _ in 0..<1500 {
            let fd = open("/dev/null", O_RDONLY)  // no O_CLOEXEC on purpose
            guard fd >= 0 else { break }
            opened.append(fd)
        }
        #expect(opened.count == 1500, "this test needs 1,500 free descriptors (ulimit -n)")
        let listings = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    // The shell lists its own descriptors; `ls` would add its directory's.
                    try await ChildProcess.run(
                        "/bin/sh", arguments: ["-c", "for f in /proc/$$/fd/* /dev/fd/*; do echo ${f##*/}; done | sort -un"]
                    ).standardOutput
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(listings.count == 16)
        for listing in listings {
            // The listing shell's own: 0, 1, 2, and the directory and pipe it lists with.
            let descriptors = Set(listing.split(separator: "\n").compactMap { Int32($0) })
            #expect(descriptors.count <= 5, "the child inherited \(descriptors.sorted())")
            #expect(descriptors.isDisjoint(with: opened.filter { $0 > 4 }), "the child inherited \(descriptors.sorted())")
        }
    }
}
