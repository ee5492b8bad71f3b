/// Why a socket operation failed, in the system's words.
public enum SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing accepted the connection, or the name did not resolve.
    case unreachable(String)
    /// The peer closed the connection.
    case closed
    /// The peer reset the connection instead of closing it: it closed with bytes of ours unread, say. What it sent
    /// before the reset may be lost on the way (it is once a write of ours fails), so a server that answers before
    /// it has read everything closes gracefully to keep its answer from this.
    case reset
    /// The deadline passed.
    case timedOut
    /// Another system error.
    case io(String)

    /// The system's words.
    public var description: String {
        switch self {
        case .unreachable(let reason): reason
        case .closed: "connection closed"
        case .reset: "connection reset by peer"
        case .timedOut: "timed out"
        case .io(let reason): reason
        }
    }
}
