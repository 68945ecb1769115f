/// A program, or a module of one, that the machine lacks: why, and how to install it.
public struct MissingProgram: Error, CustomStringConvertible, Sendable {
    public var reason: String
    public var install: String

    public var description: String { "\(reason) \(install)" }
}
