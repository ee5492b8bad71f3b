import Dispatch
import POILock
import PortableTestSupport
import Testing

/// `withBoundedWait` and the `WaitTimedOut` it throws.
///
/// The operation's value before the limit, `WaitTimedOut` at it (also when the operation ignores cancellation), the
/// operation cancelled, the caller's cancellation passed on. Every limit is on a `ManualClock`: no test here waits on
/// real time.
@Suite("withBoundedWait and WaitTimedOut", .timeLimit(.minutes(1)))
struct WaitTimedOutTests {
    /// A wait that ignores cancellation: it ends only when the test opens it.
    actor Gate {
        private var waiter: CheckedContinuation<Void, Never>?
        private var opened = false

        func wait() async {
            guard !opened else { return }
            await withCheckedContinuation { waiter = $0 }  // bounded: the test's own gate, which it opens
        }

        func open() {
            opened = true
            waiter?.resume()
            waiter = nil
        }
    }

    struct Refused: Error, Equatable {}

    @Test("The operation's value, with the clock never moved")
    func returnsTheValue() async throws {
        let clock = ManualClock()
        let value = try await withBoundedWait(.seconds(2), clock: clock) { 42 }
        #expect(value == 42)
    }

    @Test("The operation's own error, as it threw it")
    func passesTheErrorOn() async {
        let clock = ManualClock()
        await #expect(throws: Refused()) {
            try await withBoundedWait(.seconds(2), clock: clock) { () async throws -> Int in throw Refused() }
        }
    }

    @Test("An operation that throws: its error as it threw it, its timer stopped, and the clock's next wait works")
    func operationThrowsThenAgain() async throws {
        let clock = ManualClock()
        await #expect(throws: Refused()) {
            try await withBoundedWait(.seconds(2), clock: clock) { () async throws -> Int in
                try await clock.waitForSleepers()  // the wait's own timer, asleep on the clock
                throw Refused()
            }
        }
        #expect(clock.sleepingDeadlines.isEmpty, "the thrown wait's timer still sleeps on the clock")
        #expect(try await withBoundedWait(.seconds(2), clock: clock) { 42 } == 42)
        #expect(clock.now == ManualClock.Instant(offset: .zero))
    }

    @Test("WaitTimedOut when the limit passes, not before; it ends although the wait ignores cancellation")
    func timesOutAtTheLimit() async throws {
        let clock = ManualClock()
        let gate = Gate()
        let waiting = Task {
            try await withBoundedWait(.seconds(2), clock: clock) {
                await gate.wait()
                return 1
            }
        }
        try await clock.waitForSleepers()
        #expect(clock.sleepingDeadlines == [ManualClock.Instant(offset: .seconds(2))])
        clock.advance(by: .milliseconds(1999))
        #expect(clock.sleepingDeadlines == [ManualClock.Instant(offset: .seconds(2))], "woken before its limit")
        clock.advance(by: .milliseconds(1))
        await #expect(throws: WaitTimedOut(limit: .seconds(2))) {
            try await waiting.boundedValue("the bounded wait's own end")
        }
        let timedOut = await #expect(throws: WaitTimedOut.self) {
            try await waiting.boundedValue("the wait's end, read again")
        }
        #expect(timedOut?.limit == .seconds(2) && timedOut?.what == nil)
        await gate.open()  // the abandoned wait ends too: nothing is left suspended after the test
    }

    @Test("A limit of zero times out a wait that has not finished, with the clock never moved")
    func zeroLimit() async throws {
        let clock = ManualClock()
        let gate = Gate()
        await #expect(throws: WaitTimedOut(limit: .zero)) {
            try await withBoundedWait(.zero, clock: clock) {
                await gate.wait()
                return 1
            }
        }
        await gate.open()
    }

    @Test("At the time-out the operation is cancelled")
    func cancelsTheOperation() async throws {
        let clock = ManualClock()
        let never = ManualClock()
        let (events, record) = AsyncStream.makeStream(of: String.self)
        let waiting = Task {
            try await withBoundedWait(.seconds(1), clock: clock) {
                do {
                    try await never.sleep(for: .seconds(3600))
                    record.yield("woken")
                } catch {
                    record.yield(error is CancellationError ? "cancelled" : "\(error)")
                }
                record.finish()
            }
        }
        try await never.waitForSleepers()
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        await #expect(throws: WaitTimedOut(limit: .seconds(1))) {
            try await waiting.boundedValue("the bounded wait's own end")
        }
        // Each word bounded: an operation the time-out does not cancel never says it was, nor finishes the stream.
        var words = events.makeAsyncIterator()
        #expect(try await words.boundedNext("the operation's word that it was cancelled") == "cancelled")
        #expect(try await words.boundedNext("the end of the operation's words") == nil)
    }

    @Test("Cancelling the caller cancels the operation and throws CancellationError")
    func callerCancelled() async throws {
        let clock = ManualClock()
        let never = ManualClock()
        let waiting = Task {
            try await withBoundedWait(.seconds(60), clock: clock) {
                try await never.sleep(for: .seconds(3600))
            }
        }
        try await never.waitForSleepers()
        try await clock.waitForSleepers()
        waiting.cancel()
        await #expect(throws: CancellationError.self) {
            try await waiting.boundedValue("the bounded wait's own end")
        }
        #expect(never.sleepingDeadlines.isEmpty, "the operation was not cancelled")
        #expect(clock.sleepingDeadlines.isEmpty, "the wait's timer still sleeps on the clock")
        #expect(clock.now == ManualClock.Instant(offset: .zero))
    }

    @Test("The time-out says its limit")
    func message() {
        #expect(
            WaitTimedOut(limit: .seconds(2)).description
                == "did not finish within 2.0 seconds: it waited for something that never came")
    }

    @Test("On the continuous clock: the value of a wait that ends at once")
    func continuousClock() async throws {
        #expect(try await withBoundedWait(.seconds(60)) { "done" } == "done")
    }

    @Test("On the continuous clock: an operation's error as it threw it, and the next wait works")
    func continuousClockThrows() async throws {
        await #expect(throws: Refused()) {
            try await withBoundedWait(.seconds(60), what: "a refusal") { () async throws -> Int in throw Refused() }
        }
        #expect(try await withBoundedWait(.seconds(60), what: "the next wait") { "again" } == "again")
    }

    @Test("On the continuous clock: cancelling the caller cancels the operation and throws CancellationError")
    func continuousClockCallerCancelled() async throws {
        let never = ManualClock()
        let waiting = Task {
            try await withBoundedWait(.seconds(60), what: "a sleep nobody ends") {
                try await never.sleep(for: .seconds(3600))
            }
        }
        try await never.waitForSleepers()
        waiting.cancel()
        await #expect(throws: CancellationError.self) {
            try await waiting.boundedValue("the bounded wait's own end")
        }
        #expect(never.sleepingDeadlines.isEmpty, "the operation was not cancelled")
    }
}

/// The named waits: `boundedContinuation` (an async test's wait for a callback) and `boundedWait` (a synchronous
/// test's wait on blocking code), each failing with what it waited for.
@Suite("Named bounded waits", .timeLimit(.minutes(1)))
struct NamedBoundedWaitTests {
    @Test("A continuation resumed in time gives its value")
    func continuationResumed() async throws {
        let value: Int = try await boundedContinuation("the answer", within: .seconds(2), clock: ManualClock()) {
            $0.resume(returning: 7)
        }
        #expect(value == 7)
    }

    @Test("A continuation never resumed ends at the bound, naming what was waited for")
    func continuationNeverResumed() async throws {
        let clock = ManualClock()
        let held = Lock<CheckedContinuation<Int, Never>?>(nil)
        let waiting = Task {
            try await boundedContinuation("the fetch's completion", within: .seconds(10), clock: clock) {
                continuation in held.withLock { $0 = continuation }  // kept, as code that never calls back keeps it
            }
        }
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(10))
        let error = await #expect(throws: WaitTimedOut.self) {
            try await waiting.boundedValue("the bounded wait's own end")
        }
        held.withLock { $0?.resume(returning: 0) }  // the abandoned wait ends too: nothing is left suspended
        #expect(error?.what == "the fetch's completion")
        #expect(
            error?.description
                == "the fetch's completion did not come within 10.0 seconds: the code under test never delivered it "
                + "(a hang, ended here)")
    }

    @Test("A wait for a continuation whose task is cancelled throws CancellationError at once; its timer is stopped")
    func continuationCancelled() async throws {
        let clock = ManualClock()
        let (handed, hand) = AsyncStream.makeStream(of: CheckedContinuation<Int, Never>.self)
        let waiting = Task {
            try await boundedContinuation("the fetch's completion", within: .seconds(10), clock: clock) {
                hand.yield($0)
            }
        }
        var continuations = handed.makeAsyncIterator()
        let held = try #require(try await continuations.boundedNext("the continuation handed to the code under test"))
        try await clock.waitForSleepers()
        waiting.cancel()
        await #expect(throws: CancellationError.self) {
            try await waiting.boundedValue("the cancelled wait's end")
        }
        #expect(clock.sleepingDeadlines.isEmpty, "the wait's timer still sleeps on the clock")
        #expect(clock.now == ManualClock.Instant(offset: .zero))
        held.resume(returning: 0)  // a late callback: dropped, nothing traps, and the abandoned wait ends
    }

    @Test("On the continuous clock: a wait for a continuation whose task is cancelled throws CancellationError at once")
    func continuousContinuationCancelled() async throws {
        let (handed, hand) = AsyncStream.makeStream(of: CheckedContinuation<Int, Never>.self)
        let waiting = Task {
            // A bound far above the test's own wait: only the cancellation can end this one in time.
            try await boundedContinuation("the fetch's completion", within: .seconds(60)) { hand.yield($0) }
        }
        var continuations = handed.makeAsyncIterator()
        let held = try #require(try await continuations.boundedNext("the continuation handed to the code under test"))
        waiting.cancel()
        await #expect(throws: CancellationError.self) {
            try await waiting.boundedValue("the cancelled wait's end")
        }
        held.resume(returning: 0)  // a late callback: dropped, nothing traps, and the abandoned wait ends
    }

    @Test("A synchronous wait gives the work's value")
    func synchronousValue() throws {
        #expect(try boundedWait("the sum", within: .seconds(5)) { 2 + 2 } == 4)
    }

    @Test("A synchronous wait on work that never ends throws at the bound and returns")
    func synchronousNeverEnds() {
        let never = DispatchSemaphore(value: 0)
        #expect(throws: WaitTimedOut(limit: .milliseconds(20), what: "the server's stop")) {
            try boundedWait("the server's stop", within: .milliseconds(20)) { never.wait() }
        }
        never.signal()  // the thread it left blocked ends
    }

    @Test("An unnamed time-out says what it always said")
    func unnamed() {
        #expect(
            WaitTimedOut(limit: .seconds(2)).description
                == "did not finish within 2.0 seconds: it waited for something that never came")
    }
}

/// `DispatchSemaphore.waitBounded`: a signal in time returns; none throws `WaitTimedOut` naming the wait.
@Suite("A semaphore's bounded wait")
struct SemaphoreWaitBoundedTests {
    @Test("A signal already given returns at once")
    func signalled() throws {
        // Made at 0 and signalled: libdispatch traps when a semaphore goes below the value it was made with and is
        // released so.
        let semaphore = DispatchSemaphore(value: 0)
        semaphore.signal()
        try semaphore.waitBounded("the signal", within: .seconds(5))
    }

    @Test("No signal throws at the bound, naming the wait")
    func neverSignalled() {
        #expect(throws: WaitTimedOut(limit: .milliseconds(20), what: "the use to begin")) {
            try DispatchSemaphore(value: 0).waitBounded("the use to begin", within: .milliseconds(20))
        }
    }
}

/// `boundedBlockingCall` and `boundedUntil`: the value or the state in time; at the bound, `WaitTimedOut` naming the
/// wait, and the test goes on while the blocked thread stays where it is.
@Suite("A blocking call's and a state's bounded waits")
struct BlockingCallBoundedTests {
    struct Refused: Error, Equatable {}

    @Test("A blocking call's value, and its error passed on")
    func value() async throws {
        #expect(try await boundedBlockingCall("the sum") { 2 + 3 } == 5)
        await #expect(throws: Refused()) {
            try await boundedBlockingCall("the refusal") { () throws -> Int in throw Refused() }
        }
    }

    @Test("A call that blocks past its bound throws, naming it; its thread is left blocked until released")
    func blockedPastTheBound() async throws {
        let never = DispatchSemaphore(value: 0)
        await #expect(throws: WaitTimedOut(limit: .milliseconds(20), what: "the accept")) {
            // A gate the test opens only after the time-out.
            try await boundedBlockingCall("the accept", within: .milliseconds(20)) { never.wait() }
        }
        never.signal()  // the thread it left blocked ends
    }

    /// Starts a blocking call of `overload` in a task, waits until its work runs, cancels the task, and expects
    /// `CancellationError` at once; then releases the thread it left blocked and waits for the work's end.
    static func cancelMidCall(_ overload: @escaping @Sendable (@escaping @Sendable () -> Void) async throws -> Void)
        async throws
    {
        let gate = DispatchSemaphore(value: 0)
        let (events, record) = AsyncStream.makeStream(of: String.self)
        let call = Task {
            try await overload {
                record.yield("started")
                gate.wait()  // bounded: the test's own gate, which it opens below
                record.yield("ended")
            }
        }
        var seen = events.makeAsyncIterator()
        #expect(try await seen.boundedNext("the blocking call's start") == "started")
        call.cancel()
        await #expect(throws: CancellationError.self) {
            try await call.boundedValue("the cancelled call's end")
        }
        gate.signal()  // the thread it left blocked ends
        #expect(try await seen.boundedNext("the released thread's end") == "ended")
    }

    @Test("A blocking call whose task is cancelled throws CancellationError at once, its thread left blocked")
    func cancelled() async throws {
        try await Self.cancelMidCall { work in
            let blocking: @Sendable () -> Int = {
                work()
                return 1
            }
            // A bound far above the test's own wait: only the cancellation can end this one in time.
            _ = try await boundedBlockingCall("the accept", within: .seconds(60), blocking)
        }
    }

    @Test("A throwing blocking call whose task is cancelled throws CancellationError at once, its thread left blocked")
    func throwingCancelled() async throws {
        try await Self.cancelMidCall { work in
            let blocking: @Sendable () throws -> Int = {
                work()
                return 1
            }
            _ = try await boundedBlockingCall("the accept", within: .seconds(60), blocking)
        }
    }

    @Test("A wait for a state whose task is cancelled throws CancellationError at once")
    func untilCancelled() async throws {
        let (tests, record) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let waiting = Task {
            // A bound far above the test's own wait: only the cancellation can end this one in time.
            try await boundedUntil("a state that never comes", within: .seconds(60)) {
                record.yield()
                return false
            }
        }
        var tested = tests.makeAsyncIterator()
        _ = try await tested.boundedNext("the state's first test")
        waiting.cancel()
        await #expect(throws: CancellationError.self) {
            try await waiting.boundedValue("the cancelled wait's end")
        }
        record.finish()
    }

    /// Signals `released` when the condition that holds it is let go: when the loop that tests it has ended.
    final class HeldByTheCondition: Sendable {
        let released: DispatchSemaphore
        init(_ released: DispatchSemaphore) { self.released = released }
        deinit { released.signal() }
    }

    @Test(
        "A wait for a state that ends, timed out or cancelled, stops testing it: its loop ends and lets the condition go",
        arguments: ["timed out", "cancelled"])
    func untilStopsTesting(ending: String) async throws {
        let released = DispatchSemaphore(value: 0)
        do {
            let held = HeldByTheCondition(released)
            let limit: Duration = ending == "timed out" ? .milliseconds(1) : .seconds(60)
            let waiting = Task {
                try await boundedUntil("a state that never comes", within: limit) {
                    withExtendedLifetime(held) { false }
                }
            }
            if ending == "cancelled" { waiting.cancel() }
            await #expect(throws: (any Error).self) { try await waiting.boundedValue("the wait's end") }
        }
        // The loop checks for its cancellation (a wait that ends cancels it); one that did not would test the
        // condition for ever, holding it, on a task nobody waits for.
        try await boundedBlockingCall("the condition let go by the loop that tested it") {
            try released.waitBounded("the condition's release", within: .seconds(2))
        }
    }

    @Test("A state that comes returns; one that never does throws at the bound, naming it")
    func until() async throws {
        let count = Lock(0)
        let counting = Task {
            for _ in 0..<3 {
                count.withLock { $0 += 1 }
                await Task.yield()
            }
        }
        try await boundedUntil("three counts") { count.withLock { $0 } >= 3 }
        try await counting.boundedValue("the counting's end")
        await #expect(throws: WaitTimedOut(limit: .milliseconds(20), what: "a fourth count")) {
            try await boundedUntil("a fourth count", within: .milliseconds(20)) { count.withLock { $0 } >= 4 }
        }
    }
}

/// `Task.boundedValue`, for a task that throws and one that cannot: when the awaiting task is cancelled, the wait
/// throws `CancellationError` at once and cancels the task it awaited, as its time-out does, so that a test cancelled
/// by its time limit leaves nothing it awaited running.
@Suite("A task's bounded value", .timeLimit(.minutes(1)))
struct TaskBoundedValueTests {
    // The waiting task is cancelled as soon as it exists: whether the cancel lands before its wait begins or during
    // it (nothing outside can tell), the wait must throw CancellationError and cancel the task it awaits.

    @Test("Cancelled while it waits for a task that throws: CancellationError at once, and that task is cancelled")
    func throwingTaskCancelled() async throws {
        let never = ManualClock()
        let awaited = Task<Int, any Error> {
            try await never.sleep(for: .seconds(3600))
            return 1
        }
        try await never.waitForSleepers()
        let waiting = Task { try await awaited.boundedValue("the awaited task's end", within: .seconds(60)) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) {
            try await waiting.boundedValue("the cancelled wait's end")
        }
        #expect(awaited.isCancelled, "the awaited task was left running")
        #expect(never.sleepingDeadlines.isEmpty, "the awaited task still sleeps")
        await #expect(throws: CancellationError.self) {
            try await awaited.boundedValue("the awaited task's end")
        }
    }

    @Test("Cancelled while it waits for a task that cannot throw: CancellationError at once, and it is cancelled")
    func nonThrowingTaskCancelled() async throws {
        let never = ManualClock()
        let awaited = Task<Bool, Never> {
            (try? await never.sleep(for: .seconds(3600))) != nil  // false when cancelled
        }
        try await never.waitForSleepers()
        let waiting = Task { try await awaited.boundedValue("the awaited task's end", within: .seconds(60)) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) {
            try await waiting.boundedValue("the cancelled wait's end")
        }
        #expect(awaited.isCancelled, "the awaited task was left running")
        #expect(never.sleepingDeadlines.isEmpty, "the awaited task still sleeps")
        #expect(try await awaited.boundedValue("the awaited task's end") == false)
    }
}

/// `AsyncStream.Iterator.boundedNext`: a wait that ends without an element (its task cancelled, its bound passed)
/// cancels the `next()` it awaited, and a cancelled `next()` ends an `AsyncStream`.
@Suite("A stream's bounded next element", .timeLimit(.minutes(1)))
struct StreamBoundedNextTests {
    /// A stream of numbers with its continuation, and a stream that tells how it was terminated.
    static func stream() -> (AsyncStream<Int>, AsyncStream<Int>.Continuation, AsyncStream<String>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let (terminations, terminated) = AsyncStream.makeStream(of: String.self)
        continuation.onTermination = { termination in
            terminated.yield("\(termination)")
            terminated.finish()
        }
        return (stream, continuation, terminations)
    }

    /// Expects `stream` to have ended by cancellation: its producer heard `.cancelled`, a new element is refused, and
    /// an iterator gives `nil`.
    static func expectEnded(
        _ stream: AsyncStream<Int>, _ continuation: AsyncStream<Int>.Continuation, _ terminations: AsyncStream<String>
    ) async throws {
        var heard = terminations.makeAsyncIterator()
        #expect(try await heard.boundedNext("the stream's termination") == "cancelled")
        let refused = if case .terminated = continuation.yield(1) { true } else { false }
        #expect(refused, "the stream took an element after it ended")
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.boundedNext("the ended stream's nil") == nil)
    }

    @Test("The next element, and nil at the end")
    func elements() async throws {
        let (stream, continuation, _) = Self.stream()
        continuation.yield(7)
        continuation.finish()
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.boundedNext("the first element") == 7)
        #expect(try await iterator.boundedNext("the stream's end") == nil)
    }

    @Test("Cancelled while it waits: CancellationError at once, and the stream ends")
    func cancelled() async throws {
        let (stream, continuation, terminations) = Self.stream()
        let waiting = Task {
            var iterator = stream.makeAsyncIterator()
            // A bound far above the test's own wait: only the cancellation can end this one in time.
            return try await iterator.boundedNext("an element nobody sends", within: .seconds(60))
        }
        // Cancelled before its wait begins or during it (nothing outside can tell): the outcome is the same.
        waiting.cancel()
        await #expect(throws: CancellationError.self) {
            try await waiting.boundedValue("the cancelled wait's end")
        }
        try await Self.expectEnded(stream, continuation, terminations)
    }

    @Test("At its bound: WaitTimedOut naming the wait, and the stream ends")
    func timedOut() async throws {
        let (stream, continuation, terminations) = Self.stream()
        var iterator = stream.makeAsyncIterator()
        await #expect(throws: WaitTimedOut(limit: .zero, what: "an element nobody sends")) {
            try await iterator.boundedNext("an element nobody sends", within: .zero)
        }
        try await Self.expectEnded(stream, continuation, terminations)
    }
}
