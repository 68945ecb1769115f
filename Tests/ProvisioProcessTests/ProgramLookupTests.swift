import Foundation
import ProvisioProcess
import Testing

/// Programs are found on PATH as a shell finds them, and a missing one is named with its remedy.
@Suite struct ProgramLookupTests {
    @Test func findsTheFirstExecutableOnThePath() throws {
        let directory = NSTemporaryDirectory() + "lookup-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Not executable here: skipped in favour of the one in /bin.
        FileManager.default.createFile(atPath: directory + "/sh", contents: Data("#!/bin/sh\n".utf8))
        let found = ProgramLookup.find("sh", environment: ["PATH": "\(directory):/bin:/usr/bin"])
        #expect(found == "/bin/sh" || found == "/usr/bin/sh")
        #expect(ProgramLookup.find("sh", environment: ["PATH": directory]) == nil)
    }

    @Test func aMissingProgramSaysHowToInstallIt() {
        #expect {
            try ProgramLookup.require("provisio-no-such-program", orInstall: "Install it with apt-get.")
        } throws: { error in
            "\(error)" == "provisio-no-such-program is not on the PATH. Install it with apt-get."
        }
    }

    @Test func aMissingPythonModuleIsNamed() async throws {
        // Needs python3 itself, as the tests that use this do; .ci/run installs it.
        let error = await #expect(throws: MissingProgram.self) {
            try await ProgramLookup.requirePython3(importing: ["json", "provisio_no_such_module"], orInstall: "pip it.")
        }
        #expect(error?.reason.hasSuffix("cannot import json, provisio_no_such_module.") == true)
        #expect(error?.install == "pip it.")
        #expect(try await ProgramLookup.requirePython3(importing: ["json"], orInstall: "").hasSuffix("/python3"))
    }
}
