import Foundation
import ProvisioCore

/// The project ships card art (the fallback for cards without their own), and every card-art
/// PNG meets Apple's requirements: PNG, 1536 × 969, landscape, under 4 MB (ProvisioCore's
/// `CardArtCheck`, from the header), and squared corners as far as the pixels show
/// (`CornerInspection`, from the decoded image). Apple: "Square corners" for pass-entry art
/// (PKIssuerProvisioningExtensionPassEntry.art); 1536 × 969, under 4 MB, squared corners in
/// Apple's Wallet-extension FAQ as quoted on developer.apple.com/forums/thread/816921. The fix
/// names a *data set* because the example reads the art with `NSDataAsset` ("an object from a data
/// set type stored in an asset catalog", Apple's NSDataAsset page), which finds no image set.
struct CardArtAssetCheck: DoctorCheck {
    func run(_ project: WalletProject, context: CheckContext, into output: inout CheckOutput) {
        guard !project.cardArt.isEmpty else {
            if project.kind == .appBundle && project.hasCompiledAssets {
                output.notes.append(
                    "No loose card art in the app; art compiled into Assets.car cannot be read on Linux and was not checked.")
                return
            }
            output.add(
                .cardArtMissing, file: project.display(project.app?.infoPlistPath), key: nil,
                message:
                    "No card art was found (an asset-catalog set or PNG whose name contains \"CardArt\"); cards without their own art are left out of Wallet's list.",
                fix:
                    "Add a 1536 × 969 PNG under 4 MB with squared corners as a data set named DefaultCardArt in the app's asset catalog (read with NSDataAsset)."
            )
            return
        }
        for path in project.cardArt {
            inspect(path, project: project, limits: context.limits, into: &output)
        }
    }

    private func inspect(_ path: String, project: WalletProject, limits: DoctorLimits, into output: inout CheckOutput) {
        let file = project.display(path)
        guard let size = BoundedFile.size(path) else { return }
        let data: Data
        var decodable = true
        if size <= limits.maximumCardArtBytes,
            case .success(let whole) = BoundedFile.read(path, limit: limits.maximumCardArtBytes)
        {
            data = whole
        } else {
            // Over the read limit: the header still gives the size, and the file is over 4 MB anyway.
            data = BoundedFile.prefix(path, count: 24) ?? Data()
            decodable = false
        }
        var problems = CardArtCheck.problems(in: data).filter { $0.code != .cardArtTooLarge }
        if size >= CardArtCheck.maximumByteCount { problems.append(.tooLarge(byteCount: size)) }
        for problem in problems {
            let (code, fix) = Self.mapping(problem)
            output.add(code, file: file, key: nil, message: problem.message, fix: fix)
        }
        guard !problems.contains(where: { $0.code == .cardArtNotPNG }) else { return }
        guard decodable else {
            output.notes.append("\(file ?? path) is over \(limits.maximumCardArtBytes) bytes: its corners were not inspected.")
            return
        }
        let image: PNGImage
        do {
            image = try PNGImage(data: data, maximumPixels: limits.maximumPixels)
        } catch {
            let reason =
                switch error {
                case .malformed(let detail), .inflateFailed(let detail): detail
                case .tooManyPixels(let width, let height, let limit):
                    "\(width) × \(height) is more than the \(limit) pixels the doctor decodes"
                }
            output.add(
                .cardArtUnreadable, .warning, file: file, key: nil,
                message: "The card art's pixels could not be read (\(reason)), so its corners were not inspected.",
                fix: "Export it again as a plain PNG (Xcode's pngcrush variants and damaged files fail here).")
            return
        }
        switch CornerInspection.inspect(image) {
        case .squared:
            break
        case .transparentCorners(let corners):
            output.add(
                .cardArtRoundedCorners, file: file, key: nil,
                message:
                    "The card art's \(corners.joined(separator: ", ")) corner\(corners.count == 1 ? " is" : "s are") transparent: rounded or cut corners. Wallet rounds the card itself.",
                fix: "Export the art with squared, opaque corners (no alpha in the corners).")
        case .matteCorners:
            output.add(
                .cardArtRoundedCorners, file: file, key: nil,
                message:
                    "The card art is a rounded card on a matte: all four corners share one colour the card's edges do not have.",
                fix: "Export the art with squared corners, filled to the edge; Wallet rounds the card itself.")
        }
    }

    static func mapping(_ problem: CardArtProblem) -> (DoctorCode, String) {
        switch problem {
        case .notPNG: (.cardArtNotPNG, "Export the card art as a PNG.")
        case .wrongSize: (.cardArtWrongSize, "Export the card art at exactly 1536 × 969 pixels.")
        case .tooLarge: (.cardArtTooLarge, "Reduce the file under 4 MB (fewer colours, no metadata, better compression).")
        case .notLandscape: (.cardArtNotLandscape, "Use the landscape orientation, 1536 wide and 969 high.")
        }
    }
}
