/// Whether card art has squared corners, as far as its pixels show.
///
/// Apple's requirement for pass-entry art is "Square corners" (PKIssuerProvisioningExtensionPassEntry.art):
/// Wallet rounds the card itself, and art rounded by the designer shows a double curve. Two
/// signs are read from the pixels:
///
/// 1. **Transparent corners**: a corner pixel that is not fully opaque. Art with rounded corners
///    exported with alpha has transparent corners; squared art has none.
/// 2. **A matte in every corner**: the four corner pixels share one colour, the pixel two in on
///    the diagonal has it too, and both edge pixels `probe` pixels away from each corner differ
///    from it clearly. That is a rounded card drawn on a background. A border, a solid colour, a
///    gradient or a design that touches the edges does not look like this.
///
/// What the pixels cannot show: a rounded card on a matte that matches the card's own edge
/// colour, or corners rounded with a radius larger than `probe`. The doctor says so in its notes.
public struct CornerInspection: Sendable, Hashable {
    public enum Verdict: Sendable, Hashable {
        case squared
        /// Corner pixels that are not opaque (which corners, e.g. "top-left").
        case transparentCorners([String])
        /// The same matte in all four corners.
        case matteCorners
    }

    /// How far from a corner the edge pixels are sampled: beyond the radius a rounded ID-1 card
    /// has at 1536 pixels wide (3.18 of 85.6 mm, about 57 pixels).
    public static let probe = 96
    /// The per-channel difference that counts as "a different colour".
    public static let threshold = 48

    public static func inspect(_ image: PNGImage) -> Verdict {
        let (maxX, maxY) = (image.width - 1, image.height - 1)
        let corners = [
            ("top-left", 0, 0, 1, 1), ("top-right", maxX, 0, -1, 1), ("bottom-left", 0, maxY, 1, -1),
            (
                "bottom-right", maxX, maxY, -1, -1
            ),
        ]
        let transparent = corners.filter { image.pixel(x: $0.1, y: $0.2).alpha < 255 }.map(\.0)
        if !transparent.isEmpty { return .transparentCorners(transparent) }
        guard image.width > probe * 2, image.height > probe * 2 else { return .squared }
        let matte = image.pixel(x: 0, y: 0)
        let rounded = corners.allSatisfy { _, x, y, dx, dy in
            let corner = image.pixel(x: x, y: y)
            return same(corner, matte) && same(image.pixel(x: x + 2 * dx, y: y + 2 * dy), corner)
                && !same(image.pixel(x: x + probe * dx, y: y), corner) && !same(image.pixel(x: x, y: y + probe * dy), corner)
        }
        return rounded ? .matteCorners : .squared
    }

    private static func same(
        _ a: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8), _ b: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)
    ) -> Bool {
        abs(Int(a.red) - Int(b.red)) < threshold && abs(Int(a.green) - Int(b.green)) < threshold
            && abs(Int(a.blue) - Int(b.blue)) < threshold
    }
}
