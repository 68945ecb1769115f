import Foundation

/// A card product as stored: its settings (one JSON document), whether it is the tenant's
/// default, and the digest of its art when it has some (the bytes live in `card_art`).
public struct CardProductRecord: Sendable, Equatable {
    public var id: String
    public var tenantID: String
    public var isDefault: Bool
    public var settings: CardProductSettings
    public var art: CardArtSummary?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, tenantID: String, isDefault: Bool, settings: CardProductSettings, art: CardArtSummary? = nil,
        createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.tenantID = tenantID
        self.isDefault = isDefault
        self.settings = settings
        self.art = art
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// What a product says of its art without its bytes.
public struct CardArtSummary: Sendable, Equatable {
    public var sha256: String
    public var kind: CardArtFile.Kind
    public var byteCount: Int
    public var width: Int?
    public var height: Int?

    public init(_ file: CardArtFile) {
        self.init(sha256: file.sha256, kind: file.kind, byteCount: file.bytes.count, width: file.width, height: file.height)
    }

    public init(sha256: String, kind: CardArtFile.Kind, byteCount: Int, width: Int?, height: Int?) {
        self.sha256 = sha256
        self.kind = kind
        self.byteCount = byteCount
        self.width = width
        self.height = height
    }

    /// The name it is served under (`/v1/card-art/{name}`).
    public var fileName: String { "\(sha256).\(kind.fileExtension)" }
}
