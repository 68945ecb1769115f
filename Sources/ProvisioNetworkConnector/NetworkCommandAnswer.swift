/// The network's answer: the token's state on its side after the command.
public struct NetworkCommandAnswer: Sendable, Equatable {
    public var networkTokenRef: String
    public var state: String

    public init(networkTokenRef: String, state: String) {
        self.networkTokenRef = networkTokenRef
        self.state = state
    }
}
