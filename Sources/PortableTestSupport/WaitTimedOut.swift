/// The error `withBoundedWait` throws when what it waited for did not finish within its limit.
///
/// Its description is the test's failure: what the test waited for (the `what` it was given) and how long, so that a
/// hang ends as a failure that says which wait it was, not as a run someone stops by hand.
public struct WaitTimedOut: Error, Equatable, CustomStringConvertible {
    /// The limit that passed.
    public let limit: Duration

    /// What was waited for ("the fetch's completion"), or nil when the wait was not named.
    public let what: String?

    /// Creates the error for `limit`, of the wait for `what`.
    public init(limit: Duration, what: String? = nil) {
        self.limit = limit
        self.what = what
    }

    public var description: String {
        guard let what else { return "did not finish within \(limit): it waited for something that never came" }
        return "\(what) did not come within \(limit): the code under test never delivered it (a hang, ended here)"
    }
}
