import Foundation
import ProvisioCore
import Testing

@testable import ProvisioCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct SecretFileCreationTests {
    /// `fchmod` failing (a file system that refuses modes) must not leave a key file with
    /// whatever mode `umask` gave it.
    @Test func aModeThatCannotBeSetFailsAndLeavesNoFile() throws {
        let dir = NSTemporaryDirectory() + "provisio-keys-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let error = #expect(throws: ProvisioError.self) {
            try SecretFile.create(dir + "/secret", contents: Data("s".utf8), mode: 0o600, role: "test key") { _, _ in
                errno = EPERM
                return -1
            }
        }
        #expect(error?.code == .keysIOFailed)
        #expect(error?.message.contains("test key") == true)
        #expect(!FileManager.default.fileExists(atPath: dir + "/secret"))
    }

    @Test func aKeyIsNotCreatedThroughALinkOrInAnOpenDirectory() throws {
        let dir = NSTemporaryDirectory() + "provisio-keys-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/secret", withDestinationPath: dir + "/target")
        let linked = #expect(throws: ProvisioError.self) { try KeyDirectory.writeSecret("s", to: dir + "/secret") }
        #expect(linked?.code == .keysAlreadyExist)
        #expect(!FileManager.default.fileExists(atPath: dir + "/target"))
        #expect(chmod(dir, 0o777) == 0)
        let open = #expect(throws: ProvisioError.self) { try KeyDirectory.writeSecret("s", to: dir + "/other") }
        #expect(open?.code == .keysInsecureDirectory)
    }
}
