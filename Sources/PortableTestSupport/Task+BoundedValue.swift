extension Task where Failure == any Error {
    /// The task's value, awaited for at most `limit`: `value`, bounded.
    ///
    /// A test that awaits a task running the code under test (a rotation it cancelled, a load it started) hangs when
    /// that code never ends: a loop that swallows its cancellation, a continuation never resumed. Bounded, the test
    /// throws `WaitTimedOut` naming `what` on the deadline and ends; the task is cancelled and left to itself.
    public func boundedValue(_ what: String, within limit: Duration = BoundedWaitLimit.standard) async throws
        -> Success
    {
        do {
            return try await withBoundedWait(limit, what: what) { try await self.value }
        } catch let timedOut as WaitTimedOut {
            cancel()
            throw timedOut
        }
    }
}

extension Task where Failure == Never {
    /// The task's value, awaited for at most `limit` (see the throwing task's `boundedValue(_:within:)`).
    public func boundedValue(_ what: String, within limit: Duration = BoundedWaitLimit.standard) async throws
        -> Success
    {
        do {
            return try await withBoundedWait(limit, what: what) { await self.value }
        } catch let timedOut as WaitTimedOut {
            cancel()
            throw timedOut
        }
    }
}
