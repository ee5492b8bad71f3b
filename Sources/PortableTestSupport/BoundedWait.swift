import Dispatch
import Foundation
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
/// task is cancelled, `operation` is cancelled and this throws `CancellationError` at once, whether or not `operation`
/// honours its cancellation. XCTest's `expectation`s with a `timeout`, and Swift Testing's `confirmation`, bound a
/// callback; this bounds an `await`.
///
/// An error `operation` throws is passed on as it is, and the wait's timer is stopped: nothing of the wait is left
/// sleeping on `clock`.
///
/// - Parameters:
///   - limit: how long `operation` may take.
///   - clock: whose time `limit` is measured on; a test of code that uses this passes a `ManualClock`.
///   - operation: the wait to bound.
public func withBoundedWait<T: Sendable, C: Clock>(
    _ limit: Duration,
    clock: C,
    what: String? = nil,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T where C.Duration == Duration {
    // Only a bound in real time is measured: a manual clock's limit is not a time the wait could take.
    try await WaitTimes.timing(what, limit: limit, into: clock is ContinuousClock ? WaitTimes.path : nil) {
        try await racing(limit, clock: clock, what: what, operation)
    }
}

/// `operation` raced against `limit` of `clock`: the body of `withBoundedWait(_:clock:what:_:)`.
private func racing<T: Sendable, C: Clock>(
    _ limit: Duration,
    clock: C,
    what: String?,
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
                race.finish(.failure(WaitTimedOut(limit: limit, what: what)))
            }
            race.hold(work: work, timer: timer)
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// `withBoundedWait(_:clock:what:_:)` on the continuous clock, the one that counts real time.
public func withBoundedWait<T: Sendable>(
    _ limit: Duration,
    what: String? = nil,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withBoundedWait(limit, clock: ContinuousClock(), what: what, operation)
}

/// The value `body` hands its continuation, awaited for at most `limit`.
///
/// A test's wait for a completion handler, a delegate call or a callback of the code under test would otherwise
/// hang the run forever when the code never calls it. On the deadline this throws `WaitTimedOut` naming `what`, and
/// the test ends with that failure. When the calling task is cancelled, this throws `CancellationError` at once; the
/// code under test may still resume the continuation afterwards, and its value is dropped.
///
///     let answer = try await boundedContinuation("the fetch's completion") { continuation in
///         fetcher.fetch { continuation.resume(returning: $0) }
///     }
///
/// - Parameters:
///   - what: what the test waits for, as its failure will say it.
///   - limit: how long it may take (`BoundedWaitLimit.standard` unless a test needs its own).
///   - body: hands the continuation to the code under test; it must resume it once.
public func boundedContinuation<T: Sendable>(
    _ what: String,
    within limit: Duration = BoundedWaitLimit.standard,
    _ body: @escaping @Sendable (CheckedContinuation<T, Never>) -> Void
) async throws -> T {
    try await boundedContinuation(what, within: limit, clock: ContinuousClock(), body)
}

/// `boundedContinuation(_:within:_:)` with `limit` on `clock` (a test of the bound itself passes a `ManualClock`).
public func boundedContinuation<T: Sendable, C: Clock>(
    _ what: String,
    within limit: Duration,
    clock: C,
    _ body: @escaping @Sendable (CheckedContinuation<T, Never>) -> Void
) async throws -> T where C.Duration == Duration {
    try await withBoundedWait(limit, clock: clock, what: what) {
        await withCheckedContinuation { body($0) }
    }
}

/// `work` run on a thread of its own, waited for at most `limit` by the calling thread.
///
/// A synchronous test's wait on code under test that blocks: a server's `waitUntilStopped`, a process's
/// `waitUntilExit`, a read to the end of a pipe. On the deadline this throws `WaitTimedOut` naming `what` and
/// returns, the thread left blocked where it is.
public func boundedWait<T: Sendable>(
    _ what: String,
    within limit: Duration = BoundedWaitLimit.standard,
    _ work: @escaping @Sendable () -> T
) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let result = Lock<T?>(nil)
    Thread.detachNewThread {
        let value = work()
        result.withLock { $0 = value }
        done.signal()
    }
    try done.waitBounded(what, within: limit)
    guard let value = result.withLock({ $0 }) else { throw WaitTimedOut(limit: limit, what: what) }
    return value
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

/// `work`, a blocking call, run on a thread of its own and awaited for at most `limit`.
///
/// An async test's way to block on the code under test (a socket's `accept`, a read, a server's stop) without
/// blocking a thread of the concurrency pool, and without hanging when the call never returns: on the deadline this
/// throws `WaitTimedOut` naming `what`, and the thread is left blocked where it is. So it is when the calling task is
/// cancelled: this throws `CancellationError` at once.
public func boundedBlockingCall<T: Sendable>(
    _ what: String,
    within limit: Duration = BoundedWaitLimit.standard,
    _ work: @escaping @Sendable () -> T
) async throws -> T {
    try await withBoundedWait(limit, what: what) { await DedicatedThread.run(work) }
}

/// `boundedBlockingCall(_:within:_:)` for a call that throws: its error is passed on as it is.
public func boundedBlockingCall<T: Sendable>(
    _ what: String,
    within limit: Duration = BoundedWaitLimit.standard,
    _ work: @escaping @Sendable () throws -> T
) async throws -> T {
    try await withBoundedWait(limit, what: what) { try await DedicatedThread.run(work) }
}

/// `boundedBlockingCall(_:within:_:)` for a synchronous test (an XCTest method): `work` runs on a thread of its own
/// while the calling thread waits for it, at most `limit`, and its result is returned or its error passed on as it is.
///
/// Code under test that takes a lock, run on the test's own thread, hangs the whole of plain `swift test` when a lock
/// is never released or two threads wait for each other: XCTest has no time limit of its own. Run here, the same bug
/// fails the test on the deadline with `WaitTimedOut` naming `what`, and the run goes on; the work's thread is left
/// blocked where it is. XCTest records an assertion `work` makes on its thread against the test that is running.
/// Its result may go unused: a test whose work only asserts (or returns what it ran, as `Interleavings.each` does)
/// needs no `_ =`.
@available(*, noasync, message: "blocks its thread: await boundedBlockingCall instead")
@discardableResult
public func boundedBlockingCall<T: Sendable>(
    _ what: String,
    within limit: Duration = BoundedWaitLimit.standard,
    _ work: @escaping @Sendable () throws -> T
) throws -> T {
    let outcome = Lock<Result<T, any Error>?>(nil)
    let ended = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        let result = Result { try work() }
        outcome.withLock { $0 = result }
        ended.signal()
    }
    try ended.waitBounded(what, within: limit)
    // Signalled once the outcome is set.
    return try outcome.withLock { $0 }!.get()
}

/// Returns once `condition` holds, yielding between its tests, or throws `WaitTimedOut` naming `what` when it has not
/// within `limit`.
///
/// For a test that waits for the code under test to reach a state it has no event for (a call counted by a fault
/// injector): a bare `while !condition() { await Task.yield() }` spins forever when the state never comes. When the
/// calling task is cancelled, this throws `CancellationError` at once.
public func boundedUntil(
    _ what: String,
    within limit: Duration = BoundedWaitLimit.standard,
    _ condition: @escaping @Sendable () -> Bool
) async throws {
    try await withBoundedWait(limit, what: what) {
        while !condition() {
            try Task.checkCancellation()
            await Task.yield()
        }
    }
}
