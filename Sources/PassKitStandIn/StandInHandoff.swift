import Foundation

/// Carries a value PassKit moves from one of its threads to another (not part of Apple's API).
///
/// `@unchecked Sendable`: Apple declares PassKit's handler objects and most completion handlers
/// non-Sendable, yet PassKit itself calls them from its own queues. The stand-in plays PassKit, so
/// it hands such a value to exactly one other task and never touches it from two at once.
struct StandInHandoff<Value>: @unchecked Sendable {
    let value: Value
}
