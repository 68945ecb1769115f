import Foundation

/// Where "now" comes from. Core logic takes one of these instead of calling `Date()`, so tests
/// can pin time (a certificate's validity, a TAV's window, a card's expiry).
public protocol TimeSource: Sendable {
    func now() -> Date
}

/// The wall clock.
public struct SystemTimeSource: TimeSource {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that always answers the same instant.
public struct FixedTimeSource: TimeSource {
    public let instant: Date
    public init(_ instant: Date) { self.instant = instant }
    public func now() -> Date { instant }
}
