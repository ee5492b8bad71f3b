/// Why a request head is refused: the status to answer (400, or 501 for a transfer coding the server does not
/// implement, 505 for an HTTP version it does not speak) and a reason a client can act on.
public struct HTTPHeadError: Error, Equatable, Sendable {
    /// The status of the answer.
    public let status: Int
    /// What was wrong, for the answer's body.
    public let reason: String

    /// The error answered with `status`, saying `reason`.
    public init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}
