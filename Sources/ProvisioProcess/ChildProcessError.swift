/// A child process that could not be started or watched, with what went wrong.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
