public import Dispatch

extension DispatchSemaphore {
    /// Waits for a signal from the code under test for at most `limit`, and throws `WaitTimedOut` naming `what` when
    /// none came: the bounded form of `wait()` for a synchronous test.
    @available(*, noasync, message: "blocks its thread: await boundedContinuation or withBoundedWait instead")
    public func waitBounded(_ what: String, within limit: Duration = BoundedWaitLimit.standard) throws {
        let (seconds, attoseconds) = limit.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        try WaitTimes.timingSync(what, limit: limit) {
            guard wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else {
                throw WaitTimedOut(limit: limit, what: what)
            }
        }
    }
}
