/// How a child process ended: its exit status, or the signal that killed it.
public enum ProcessTermination: Sendable, Hashable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    /// The exit status, or nil when a signal ended the process.
    public var exitStatus: Int32? {
        if case .exited(let status) = self { return status }
        return nil
    }

    /// The status as shells report it: the exit status, or 128 + the signal's number.
    public var status: Int32 {
        switch self {
        case .exited(let status): status
        case .signaled(let signal): 128 + signal
        }
    }

    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signaled(let signal): "killed by signal \(signal)"
        }
    }
}
