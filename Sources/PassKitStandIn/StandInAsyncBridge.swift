import Foundation

/// How the stand-in plays Swift's import of an Objective-C completion-handler method (not part of
/// Apple's API).
///
/// Swift imports such a method twice, with the completion handler and as `async`. Both are one
/// Objective-C method, so a subclass or a conforming type implements either one, and PassKit calls
/// the completion-handler form. Here each base form calls the other; this flag marks a call coming
/// from the base `async` form, so that a type implementing neither gets one default answer instead
/// of a loop.
enum StandInAsyncBridge {
    @TaskLocal static var inBaseAsyncForm = false
}
