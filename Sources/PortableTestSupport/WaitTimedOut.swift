/// The error `withBoundedWait` throws when what it waited for did not finish within its limit.
public struct WaitTimedOut: Error, Equatable, CustomStringConvertible {
    /// The limit that passed.
    public let limit: Duration

    /// Creates the error for `limit`.
    public init(limit: Duration) {
        self.limit = limit
    }

    public var description: String {
        "did not finish within \(limit): it waited for something that never came"
    }
}
