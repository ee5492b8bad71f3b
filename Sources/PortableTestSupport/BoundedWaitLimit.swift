/// The bounds of the waits on the code under test when a test names none.
///
/// Each is several times the slowest such wait measured here: every wait writes how long it took when
/// `POI_WAIT_TIMES` names a file, and `scripts/tool wait-times` reads it. CI records them under both sanitizers, the
/// other lane busy, and fails when a wait takes more than half its bound.
///
/// Measured on the project's 2-core Linux machine with the other core busy (a shell loop), every tier in one run:
/// AddressSanitizer twice, ThreadSanitizer five times.
public enum BoundedWaitLimit {
    /// Ten seconds, for a wait in the test's own process.
    ///
    /// A continuation, a task, a stream, a thread. The slowest seen took 2.7 s under ThreadSanitizer (a thread's
    /// name, asked while the tiers' 400 tests start at once) and 1.9 s under AddressSanitizer. A hang ends a plain
    /// `swift test` as a named failure well within the thirty seconds issue 52's claims allow (Swift Testing's own
    /// limit is a minute, and a wait that ignores cancellation outlives it).
    public static let standard: Duration = .seconds(10)

    /// Twenty seconds, for a launched program's end or its ready line, and for a run in process.
    ///
    /// The slowest seen took 4.3 s under ThreadSanitizer (the tiers' launches all starting at once) and 3.3 s under
    /// AddressSanitizer.
    public static let program: Duration = .seconds(20)
}
