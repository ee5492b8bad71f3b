import POILock

/// Runs `operation` and returns what it returns, or throws `WaitTimedOut` when it has not finished within `limit`
/// of `clock`'s time.
///
/// A test that awaits a completion that never comes (a data task never resumed, a delegate never called) hangs:
/// CI stops it minutes later, if at all, and names no line. Bounded, the same test fails at once with the line that
/// waited, and ends. The bound is a safety net for a broken build, not a timer the test relies on: pick a limit far
/// above the time the wait takes when the code works (a stubbed load takes milliseconds; two seconds is a bound).
///
/// On a time-out `operation`'s task is cancelled and not waited for: a wait that honours cancellation ends there;
/// one that ignores it stays suspended, holding only what it captured, and the test still ends. When the calling
/// task is cancelled, `operation` is cancelled and this throws `CancellationError`. XCTest's `expectation`s with a
/// `timeout`, and Swift Testing's `confirmation`, bound a callback; this bounds an `await`.
///
/// - Parameters:
///   - limit: how long `operation` may take.
///   - clock: whose time `limit` is measured on; a test of code that uses this passes a `ManualClock`.
///   - operation: the wait to bound.
public func withBoundedWait<T: Sendable, C: Clock>(
    _ limit: Duration,
    clock: C,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T where C.Duration == Duration {
    let race = BoundedWaitRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            let work = Task {
                do {
                    race.finish(.success(try await operation()))
                } catch {
                    race.finish(.failure(error))
                }
            }
            let timer = Task {
                do {
                    try await clock.sleep(for: limit)
                } catch {
                    return  // cancelled: the operation finished first, or the caller was cancelled
                }
                race.finish(.failure(WaitTimedOut(limit: limit)))
            }
            race.hold(work: work, timer: timer)
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// `withBoundedWait(_:clock:_:)` on the continuous clock, the one that counts real time.
public func withBoundedWait<T: Sendable>(
    _ limit: Duration,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withBoundedWait(limit, clock: ContinuousClock(), operation)
}

/// The race of a bounded wait: the first of the operation, the timer and the caller's cancellation to finish resumes
/// the caller, once, and cancels the two tasks.
private final class BoundedWaitRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var result: Result<T, any Error>?
        var tasks: [Task<Void, Never>] = []
    }

    private let state = Lock(State())

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let result = state.withLock { state -> Result<T, any Error>? in
            if state.result == nil { state.continuation = continuation }
            return state.result
        }
        if let result { continuation.resume(with: result) }  // cancelled before it began
    }

    /// Keeps the tasks to cancel when the race ends; cancels them now when it has already ended.
    func hold(work: Task<Void, Never>, timer: Task<Void, Never>) {
        let ended = state.withLock { state -> Bool in
            if state.result == nil { state.tasks = [work, timer] }
            return state.result != nil
        }
        if ended {
            work.cancel()
            timer.cancel()
        }
    }

    /// Ends the race with `result` unless it has ended already.
    func finish(_ result: Result<T, any Error>) {
        typealias Ending = (continuation: CheckedContinuation<T, any Error>?, tasks: [Task<Void, Never>])
        let (continuation, tasks) = state.withLock { state -> Ending in
            guard state.result == nil else { return (nil, []) }
            state.result = result
            defer {
                state.continuation = nil
                state.tasks = []
            }
            return (state.continuation, state.tasks)
        }
        for task in tasks { task.cancel() }
        continuation?.resume(with: result)
    }
}
