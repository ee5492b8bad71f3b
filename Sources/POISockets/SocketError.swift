/// Why a socket operation failed, in the system's words.
public enum SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing accepted the connection, or the name did not resolve.
    case unreachable(String)
    /// The peer closed the connection.
    case closed
    /// The deadline passed.
    case timedOut
    /// Another system error.
    case io(String)

    /// The system's words.
    public var description: String {
        switch self {
        case .unreachable(let reason): reason
        case .closed: "connection closed"
        case .timedOut: "timed out"
        case .io(let reason): reason
        }
    }
}
