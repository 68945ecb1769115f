import Foundation

/// Timeouts and deadlines as `TimeInterval` seconds, for the code an iOS app links (ProvisioCore,
/// ProvisioClient, ProvisioKit): Swift's `Duration`, `Clock` and `Task.sleep(for:)` need iOS 16,
/// while `Task.sleep(nanoseconds:)` and `DispatchTime` work on every iOS the SDK supports.
public enum Seconds {
    /// `seconds` in whole nanoseconds, rounded up so a wait is never shorter than asked: 0 for
    /// zero, negative or NaN; `UInt64.max` for anything longer (infinity included).
    public static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        guard seconds > 0 else { return 0 }
        let nanoseconds = (seconds * 1_000_000_000).rounded(.up)
        guard nanoseconds < Double(UInt64.max) else { return .max }
        return UInt64(nanoseconds)
    }

    /// Suspends the current task for `seconds` (`Task.sleep(nanoseconds:)`); throws
    /// `CancellationError` when the task is cancelled first.
    public static func sleep(_ seconds: TimeInterval) async throws {
        try await Task.sleep(nanoseconds: nanoseconds(seconds))
    }

    /// `seconds` for a message, the way `Duration` prints: "15.0 seconds", "0.08 seconds".
    public static func text(_ seconds: TimeInterval) -> String {
        "\(seconds) seconds"
    }
}
