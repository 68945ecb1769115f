import Foundation

/// Card art PNGs made here, independently of the decoder they are checked with: palette images
/// (2 bits a pixel) in stored deflate blocks, so a 1536 × 969 image is about 370 KB — larger
/// than any other request body may be, as real art often is.
enum TestCardArt {
    /// Apple's size, one colour, squared corners: accepted.
    static var valid: Data { png(width: 1536, height: 969) }
    /// Apple's size with its four corner pixels transparent: rounded corners.
    static var roundedCorners: Data {
        png(width: 1536, height: 969) { x, y in
            let corner = (x < 2 || x >= 1534) && (y < 2 || y >= 967)
            return corner ? 1 : 0
        }
    }
    /// Right shape, wrong size.
    static var small: Data { png(width: 320, height: 202) }

    /// A palette PNG: index 0 opaque blue, 1 fully transparent, 2 and 3 grey.
    static func png(width: Int, height: Int, index: (Int, Int) -> UInt8 = { _, _ in 0 }) -> Data {
        var raw: [UInt8] = []
        let rowBytes = (width * 2 + 7) / 8
        raw.reserveCapacity((rowBytes + 1) * height)
        for y in 0..<height {
            raw.append(0)
            var row = [UInt8](repeating: 0, count: rowBytes)
            for x in 0..<width {
                row[x / 4] |= (index(x, y) & 0x3) << UInt8(6 - 2 * (x % 4))
            }
            raw += row
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [2, 3, 0, 0, 0])
        png += chunk("PLTE", [0x1F, 0x3A, 0x93, 0, 0, 0, 0x80, 0x80, 0x80, 0xC0, 0xC0, 0xC0])
        png += chunk("tRNS", [0xFF, 0x00, 0xFF, 0xFF])
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return Data(png)
    }

    static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var index = 0
        repeat {
            let count = min(65_535, bytes.count - index)
            let final: UInt8 = index + count == bytes.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += bytes[index..<index + count]
            index += count
        } while index < bytes.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + be32(b << 16 | a)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
