import Foundation
import ProvisioCore

/// `validateActivationCode`'s answer for a stored code, and the code's next state. Pure: a code
/// works once, until its expiry, and the third miss voids it ([PD]: "typically 3 attempts").
enum MDESCodeCheck {
    static let maximumAttempts = 3

    enum Result: String, Sendable {
        case success = "SUCCESS"
        case incorrectCode = "INCORRECT_CODE"
        case retriesExceeded = "INCORRECT_CODE_RETRIES_EXCEEDED"
        case expiredCode = "EXPIRED_CODE"
    }

    /// The result, and the record to store (nil when nothing changes).
    static func check(_ record: MDESActivationCodeRecord?, presentedDigest: String, now: Date) -> (
        Result, MDESActivationCodeRecord?
    ) {
        guard var record, record.state == .live else { return (.expiredCode, nil) }
        if now >= record.expiresAt {
            record.state = .void
            return (.expiredCode, record)
        }
        if ConstantTime.equal(presentedDigest, record.codeDigest) {
            record.state = .used
            return (.success, record)
        }
        record.failures += 1
        guard record.failures >= maximumAttempts else { return (.incorrectCode, record) }
        record.state = .void
        return (.retriesExceeded, record)
    }
}
