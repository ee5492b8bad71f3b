import PortableTestSupport
import Testing

/// The test clock itself: it wakes sleepers only when advanced, in deadline order, and honours cancellation.
@Suite("ManualClock", .timeLimit(.minutes(1)))
struct ManualClockTests {
    @Test("Time moves only when advanced")
    func advancing() {
        let clock = ManualClock()
        #expect(clock.now == ManualClock.Instant(offset: .zero))
        clock.advance(by: .seconds(3))
        clock.advance(by: .milliseconds(500))
        #expect(clock.now == ManualClock.Instant(offset: .milliseconds(3500)))
    }

    @Test("An instant is its offset from the start: advanced, measured, ordered and named by it")
    func instants() {
        let start = ManualClock.Instant(offset: .zero)
        let later = start.advanced(by: .milliseconds(1500))
        #expect(later.offset == .milliseconds(1500))
        #expect(later.advanced(by: .milliseconds(-500)).offset == .seconds(1))
        #expect(start.duration(to: later) == .milliseconds(1500))
        #expect(later.duration(to: start) == .milliseconds(-1500))
        #expect(start < later && !(later < start) && !(later < later))
        #expect(later.description == "\(Duration.milliseconds(1500))")
        #expect(ManualClock().minimumResolution == .zero)  // any duration can be slept exactly
    }

    @Test("Sleepers wake when their deadline comes, earliest first")
    func wakesInOrder() async throws {
        let clock = ManualClock()
        let (order, record) = AsyncStream.makeStream(of: Int.self)
        let late = Task {
            try await clock.sleep(for: .seconds(5))
            record.yield(5)
        }
        let early = Task {
            try await clock.sleep(for: .seconds(2))
            record.yield(2)
        }
        try await clock.waitForSleepers(count: 2)
        clock.advance(by: .seconds(1))
        #expect(clock.sleepingDeadlines.count == 2)
        clock.advance(by: .seconds(1))
        try await early.boundedValue("the end of the 2 s sleeper")
        #expect(clock.sleepingDeadlines == [ManualClock.Instant(offset: .seconds(5))])
        clock.advance(by: .seconds(10))
        try await late.boundedValue("the end of the 5 s sleeper")
        record.finish()
        var woken: [Int] = []
        for await value in order { woken.append(value) }  // bounded: the test finished the stream above
        #expect(woken == [2, 5])
    }

    @Test("A deadline already past returns at once")
    func pastDeadline() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(1))
        try await clock.sleep(until: ManualClock.Instant(offset: .zero))
    }

    @Test("Cancelling a sleeper throws CancellationError")
    func cancellation() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        try await clock.waitForSleepers()
        sleeper.cancel()
        await #expect(throws: CancellationError.self) {
            try await sleeper.boundedValue("the end of the cancelled sleeper")
        }
        #expect(clock.sleepingDeadlines.isEmpty)
    }

    @Test("A wait for sleepers whose task is cancelled throws CancellationError at once; a later wait counts afresh")
    func waitForSleepersCancelled() async throws {
        let clock = ManualClock()
        // A bound far above the test's own wait: only the cancellation can end this one in time.
        let waiting = Task { try await clock.waitForSleepers(count: 1, within: .seconds(60)) }
        // Cancelled before its wait begins or during it (nothing outside can tell): the outcome is the same.
        waiting.cancel()
        await #expect(throws: CancellationError.self) {
            try await waiting.boundedValue("the cancelled wait's end")
        }
        #expect(clock.sleepingDeadlines.isEmpty)
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        try await clock.waitForSleepers()
        #expect(clock.sleepingDeadlines == [ManualClock.Instant(offset: .seconds(1))])
        clock.advance(by: .seconds(1))
        try await sleeper.boundedValue("the end of the 1 s sleeper")
    }
}
