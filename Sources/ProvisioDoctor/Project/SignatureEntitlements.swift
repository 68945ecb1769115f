import Foundation

/// The entitlements a built executable was signed with. The code signature (Mach-O
/// `LC_CODE_SIGNATURE`) holds them as a blob with the magic `0xfade7171`
/// (CSMAGIC_EMBEDDED_ENTITLEMENTS), a big-endian length that counts the 8-byte header, then the
/// XML property list. Finding the blob by its magic works for thin and fat binaries alike; a
/// candidate counts only when its payload parses as a property list.
enum SignatureEntitlements {
    static let magic: [UInt8] = [0xFA, 0xDE, 0x71, 0x71]

    static func find(in data: Data, maximumPlistBytes: Int) -> PlistValue? {
        let needle = Data(magic)
        var searchFrom = data.startIndex
        while let range = data.range(of: needle, in: searchFrom..<data.endIndex) {
            searchFrom = range.lowerBound + 1
            let header = range.lowerBound
            guard header + 8 <= data.endIndex else { return nil }
            let length = Int(data[header + 4..<header + 8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            guard length > 8, length - 8 <= maximumPlistBytes, header + length <= data.endIndex else { continue }
            if let value = try? PropertyListReader(maximumBytes: maximumPlistBytes).parse(data[header + 8..<header + length])
                .value,
                value.dictionary != nil
            {
                return value
            }
        }
        return nil
    }
}
