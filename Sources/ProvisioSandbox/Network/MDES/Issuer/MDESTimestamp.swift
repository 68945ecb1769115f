import Foundation

/// The MDES document's timestamps: ISO 8601 in UTC with milliseconds, `2026-07-04T19:09:56.123Z`.
enum MDESTimestamp {
    static func string(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }

    /// How long an encrypted payload stays valid: the document recommends now + 30 minutes.
    static let payloadLifetime: TimeInterval = 30 * 60
}
