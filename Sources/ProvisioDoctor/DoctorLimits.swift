/// Every bound on what the doctor reads. It examines folders and apps it did not make, so each
/// file it opens, each folder level it enters and each pixel it decodes is capped.
public struct DoctorLimits: Sendable, Hashable {
    /// An Info.plist or entitlements file (real ones are a few kilobytes).
    public var maximumPlistBytes = 1 << 20
    /// A project.pbxproj (large projects reach a few megabytes).
    public var maximumProjectFileBytes = 16 << 20
    /// One source file searched for the principal classes; larger ones are skipped with a note.
    public var maximumSourceFileBytes = 1 << 20
    /// Card art read for the corner check; larger files are only sized (they are over Apple's
    /// 4 MB anyway).
    public var maximumCardArtBytes = 16 << 20
    /// Pixels decoded for the corner check (card art has 1,488,384).
    public var maximumPixels = 1 << 22
    /// A built app's executable, read for the entitlements in its code signature.
    public var maximumExecutableBytes = 256 << 20
    /// Folder levels entered below PATH; deeper folders are not examined (and a note says so).
    public var maximumDepth = 12
    /// Files and folders walked below PATH; more is unusable input (exit status 2).
    public var maximumEntries = 50_000
    /// Superclasses followed from a principal class.
    public var maximumClassChain = 32

    public init() {}
}
