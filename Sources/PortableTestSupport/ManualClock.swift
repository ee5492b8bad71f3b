import POILock

/// A `Clock` whose time moves only when a test advances it: sleepers wake at once, in order, without real waiting.
///
/// The async twin of the talk's mocked timer scheduler (WWDC 2018 session 417, "Test execution speed"): code under
/// test sleeps on an injected clock; the test passes this one and calls `advance(by:)`.
public final class ManualClock: Clock, Sendable {
    /// A point on the manual clock: how long after its start.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time since the clock's start.
        public var offset: Duration

        /// Creates the instant `offset` after the start.
        public init(offset: Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        public var description: String {
            "\(offset)"
        }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var sleeperWaiters: [(id: UInt64, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Lock(State())

    /// Creates a clock at instant zero.
    public init() {}

    /// The clock's instant: zero when it is made, moved only by `advance(by:)`.
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// Zero: a sleep of any duration ends exactly at its deadline.
    public var minimumResolution: Duration {
        .zero
    }

    /// The deadlines of the tasks sleeping on the clock, earliest first.
    public var sleepingDeadlines: [Instant] {
        state.withLock { $0.sleepers.map(\.deadline).sorted() }
    }

    /// Sleeps until the clock is advanced to `deadline`; throws `CancellationError` if the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, readyWaiters) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    if deadline <= state.now || Task.isCancelled { return (true, []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (false, Self.takeSatisfiedWaiters(&state))
                }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
                for waiter in readyWaiters { waiter.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` and wakes, in deadline order, every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` tasks sleep on the clock, or throws `WaitTimedOut` when they have not within
    /// `limit` of real time.
    ///
    /// A test advances the clock only after the code under test went to sleep; this waits on the sleepers' arrival,
    /// never on the manual time. Code that never goes to sleep (a loop that no longer sleeps, a task never started)
    /// would leave the test waiting forever; the bound ends it as a failure that names the sleepers it waited for.
    /// If the waiting task is cancelled (a test's time limit), it throws `CancellationError` at once and stops waiting.
    public func waitForSleepers(count: Int = 1, within limit: Duration = BoundedWaitLimit.standard) async throws {
        let what = count == 1 ? "a sleeper on the manual clock" : "\(count) sleepers on the manual clock"
        try await withBoundedWait(limit, what: what) { await self.sleepersArrived(count: count) }
    }

    /// Returns once at least `count` tasks sleep on the clock, or at once when the waiting task is cancelled.
    private func sleepersArrived(count: Int) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.sleepers.count >= count || Task.isCancelled { return true }
                    state.sleeperWaiters.append((id, count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.sleeperWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleeperWaiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
    }

    private static func takeSatisfiedWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let sleeping = state.sleepers.count
        let ready = state.sleeperWaiters.filter { $0.count <= sleeping }.map(\.continuation)
        state.sleeperWaiters.removeAll { $0.count <= sleeping }
        return ready
    }
}
