import Foundation
import ProvisioCore

/// Ids of audit lines that sort in the order the lines were written: the time, then a
/// process-wide sequence, then randomness (so two processes never collide). The log is read
/// by `(created_at, id)`, and several lines of one change share a millisecond.
enum AuditEventID {
    /// `Locked`, not `Synchronization.Atomic`: the package still builds for macOS 14.
    private static let sequence = Locked<UInt64>(0)

    static func next(at time: Date) -> String {
        let milliseconds = UInt64(max(0, time.epochMilliseconds))
        let count = sequence.withLock { value in
            value &+= 1
            return value
        }
        return "aud_" + hex(milliseconds, digits: 12) + hex(count, digits: 12) + RandomToken.hex(byteCount: 4)
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text.suffix(digits)
    }
}
