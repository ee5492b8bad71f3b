extension Task where Failure == any Error {
    /// The task's value, awaited for at most `limit`: `value`, bounded.
    ///
    /// A test that awaits a task running the code under test (a rotation it cancelled, a load it started) hangs when
    /// that code never ends: a loop that swallows its cancellation, a continuation never resumed. Bounded, the test
    /// throws `WaitTimedOut` naming `what` on the deadline and ends; the task is cancelled and left to itself.
    ///
    /// When the awaiting task is cancelled (a test's time limit), this throws `CancellationError` at once and cancels
    /// the task too, as on the deadline: nothing the test awaited is left running.
    public func boundedValue(_ what: String, within limit: Duration = BoundedWaitLimit.standard) async throws
        -> Success
    {
        do {
            return try await withBoundedWait(limit, what: what) { try await self.value }
        } catch let error where error is WaitTimedOut || error is CancellationError {
            cancel()
            throw error
        }
    }
}

extension Task where Failure == Never {
    /// The task's value, awaited for at most `limit` (see the throwing task's `boundedValue(_:within:)`): on the
    /// deadline, and when the awaiting task is cancelled, the task is cancelled too.
    public func boundedValue(_ what: String, within limit: Duration = BoundedWaitLimit.standard) async throws
        -> Success
    {
        do {
            return try await withBoundedWait(limit, what: what) { await self.value }
        } catch let error where error is WaitTimedOut || error is CancellationError {
            cancel()
            throw error
        }
    }
}
