import Foundation
import ProvisioDoctor
import Testing

/// What the doctor cannot examine is an error with a stable code (exit status 2), not findings.
@Suite struct InputTests {
    func error(_ path: String, _ doctor: Doctor = Doctor()) -> DoctorError? {
        do {
            _ = try doctor.examine(path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingPathIsInputNotFound() {
        #expect(error("/nonexistent/provisio-doctor")?.code == .inputNotFound)
    }

    @Test func anIPAIsRefusedWithHowToUnpackIt() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        let ipa = copy.base + "/Example.ipa"
        try Data([0x50, 0x4B, 0x03, 0x04, 0x14, 0, 0, 0]).write(to: URL(fileURLWithPath: ipa))
        let refused = try #require(error(ipa))
        #expect(refused.code == .inputIPAUnsupported)
        #expect(refused.message.contains("unzip"))
        // A zip by any other name, too; and an .ipa folder by its name.
        try FileManager.default.moveItem(atPath: ipa, toPath: copy.base + "/Example.bin")
        #expect(error(copy.base + "/Example.bin")?.code == .inputIPAUnsupported)
        try FileManager.default.createDirectory(atPath: copy.base + "/Other.ipa", withIntermediateDirectories: false)
        #expect(error(copy.base + "/Other.ipa")?.code == .inputIPAUnsupported)
    }

    @Test func otherInputIsUnsupported() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        #expect(error(copy.path("README.md"))?.code == .inputUnsupported)
        #expect(error(copy.path("Shared"))?.code == .inputUnsupported)
        try FileManager.default.createDirectory(atPath: copy.base + "/Bank.xcworkspace", withIntermediateDirectories: false)
        #expect(error(copy.base + "/Bank.xcworkspace")?.code == .inputUnsupported)
        try FileManager.default.createDirectory(atPath: copy.base + "/Broken.xcodeproj", withIntermediateDirectories: false)
        try Data("{ objects = ".utf8).write(to: URL(fileURLWithPath: copy.base + "/Broken.xcodeproj/project.pbxproj"))
        #expect(error(copy.base + "/Broken.xcodeproj")?.code == .inputUnsupported)
        try FileManager.default.createDirectory(atPath: copy.base + "/Empty.app", withIntermediateDirectories: false)
        #expect(error(copy.base + "/Empty.app")?.code == .inputUnsupported)
    }

    @Test func symbolicLinksAreNotFollowed() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        // A link back to the top would loop forever if followed.
        try FileManager.default.createSymbolicLink(atPath: copy.path("Shared/loop"), withDestinationPath: copy.root)
        #expect(try Doctor().examine(copy.root).findings == [])
    }
}
