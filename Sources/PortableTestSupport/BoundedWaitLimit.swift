/// The bound of a wait on the code under test when a test names none.
public enum BoundedWaitLimit {
    /// Ten seconds: far above what such a wait takes when the code works, and short enough that a hang ends a plain
    /// `swift test` as a named failure well within the thirty seconds issue 52's claims allow (Swift Testing's own
    /// limit is a minute, and a wait that ignores cancellation outlives it).
    public static let standard: Duration = .seconds(10)
}
