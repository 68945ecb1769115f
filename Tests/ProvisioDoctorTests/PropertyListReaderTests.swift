import Foundation
import ProvisioDoctor
import Testing

/// XML, binary and OpenStep property lists read into the same values, booleans kept apart
/// from integers, and the size limit enforced before parsing.
@Suite struct PropertyListReaderTests {
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <!-- a comment, as the example's files have -->
            <key>yes</key><true/>
            <key>no</key><false/>
            <key>one</key><integer>1</integer>
            <key>zero</key><integer>0</integer>
            <key>half</key><real>0.5</real>
            <key>when</key><date>2020-01-01T00:00:00Z</date>
            <key>bytes</key><data>AAEC</data>
            <key>list</key><array><string>a</string><string>b</string></array>
            <key>nested</key><dict><key>deep</key><string>value</string></dict>
        </dict>
        </plist>
        """

    let reader = PropertyListReader(maximumBytes: 1 << 16)

    func expectValues(_ value: PlistValue) {
        #expect(value["yes"] == .bool(true))
        #expect(value["no"] == .bool(false))
        #expect(value["one"] == .integer(1))
        #expect(value["zero"] == .integer(0))
        #expect(value["half"] == .real(0.5))
        #expect(value["when"] == .date(Date(timeIntervalSince1970: 1_577_836_800)))
        #expect(value["bytes"] == .data(Data([0, 1, 2])))
        #expect(value["list"]?.strings == ["a", "b"])
        #expect(value[path: "nested.deep"]?.string == "value")
    }

    @Test func readsXMLAndBinaryAlike() throws {
        let (value, format) = try reader.parse(Data(Self.xml.utf8))
        #expect(format == .xml)
        expectValues(value)
        let binary = try PropertyListSerialization.data(fromPropertyList: value.foundationObject, format: .binary, options: 0)
        #expect(binary.prefix(8) == Data("bplist00".utf8))
        let (again, binaryFormat) = try reader.parse(binary)
        #expect(binaryFormat == .binary)
        expectValues(again)
    }

    @Test func readsOpenStepAsInProjectFiles() throws {
        let text = """
            // !$*UTF8*$!
            { objects = { A1 /* comment */ = { isa = PBXNativeTarget; name = "My App"; list = (x, "y z", ); }; }; rootObject = A1; }
            """
        let (value, format) = try reader.parse(Data(text.utf8))
        #expect(format == .openStep)
        #expect(value[path: "objects.A1.name"]?.string == "My App")
        #expect(value[path: "objects.A1.list"]?.strings == ["x", "y z"])
    }

    @Test func refusesWhatIsNotAPropertyListOrTooLarge() {
        #expect(throws: PropertyListReader.Failure.self) { try reader.parse(Data("not a plist".utf8)) }
        #expect(throws: PropertyListReader.Failure.tooLarge(byteCount: 20, limit: 10)) {
            try PropertyListReader(maximumBytes: 10).parse(Data(repeating: 0x20, count: 20))
        }
    }
}
