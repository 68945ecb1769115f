import Foundation
import ProvisioDoctor
import Testing

/// The example app is a complete Wallet setup: the doctor finds nothing in it, read as a
/// folder, with binary property lists, through an .xcodeproj, or as a built .app.
@Suite struct CleanExampleTests {
    @Test func theExampleFolderHasNoFindings() throws {
        let report = try Doctor().examine(ExampleCopy.example)
        #expect(report.findings == [], "\(report.findings)")
        #expect(report.exitStatus == 0)
        #expect(report.kind == .folder)
        let roles = Dictionary(uniqueKeysWithValues: report.targets.map { ($0.role, $0) })
        #expect(roles[.app]?.infoPlist == "App/Info.plist")
        #expect(roles[.app]?.entitlements == "App/IssuerApp.entitlements")
        #expect(roles[.nonUIExtension]?.infoPlist == "NonUIExtension/Info.plist")
        #expect(roles[.uiExtension]?.entitlements == "UIExtension/UIExtension.entitlements")
    }

    @Test func binaryPropertyListsReadTheSame() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        for file in ExampleCopy.infoPlists + ExampleCopy.entitlements {
            try copy.edit(file, format: .binary) { _ in }
            #expect(BoundedPrefix.of(copy.path(file)) == "bplist00")
        }
        let report = try Doctor().examine(copy.root)
        #expect(report.findings == [], "\(report.findings)")
    }

    @Test func theReportEncodesToStableJSON() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        try copy.set("NonUIExtension/NonUIExtension.entitlements", "com.apple.developer.payment-pass-provisioning", nil)
        let report = try Doctor().examine(copy.root)
        let json = try #require(try JSONSerialization.jsonObject(with: report.json()) as? [String: Any])
        #expect(json["kind"] as? String == "folder")
        let finding = try #require((json["findings"] as? [[String: Any]])?.first)
        #expect(finding["code"] as? String == "doctor.payment_pass_entitlement_missing")
        #expect(finding["severity"] as? String == "error")
        #expect(finding["file"] as? String == "NonUIExtension/NonUIExtension.entitlements")
        #expect(finding["key"] as? String == "com.apple.developer.payment-pass-provisioning")
        #expect((finding["fix"] as? String)?.isEmpty == false)
        let targets = try #require(json["targets"] as? [[String: Any]])
        #expect(targets.map { $0["role"] as? String } == ["app", "non_ui_extension", "ui_extension"])
        #expect(targets.first?["info_plist"] as? String == "App/Info.plist")
        #expect(try JSONDecoder.snakeCase.decode(DoctorReport.self, from: report.json()) == report)
    }
}

/// The first eight bytes of a file as text (`bplist00` for a binary property list).
enum BoundedPrefix {
    static func of(_ path: String) -> String {
        let handle = FileHandle(forReadingAtPath: path)
        defer { try? handle?.close() }
        return String(decoding: (try? handle?.read(upToCount: 8)) ?? Data(), as: UTF8.self)
    }
}

extension JSONDecoder {
    static var snakeCase: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}
