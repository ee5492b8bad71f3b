import Dispatch
import POIDomain
import POILock
import PortableTestSupport
import Testing

@testable import POIApp

/// The delay written with `DispatchQueue`'s delayed work instead of a timer, mocked the same way: the scheduler
/// records the delay and keeps the work, and the test runs it when it wants, without waiting.
@Suite("FeaturedPlaceManager with a delayed-work scheduler", .timeLimit(.minutes(1)))
struct DelayedWorkSchedulerTests {
    static let places = ["A", "B", "C"].map { PointOfInterest(name: $0) }

    /// Records each delay and keeps the work until the test runs it.
    final class KeepingScheduler: DelayedWorkScheduler, Sendable {
        private let scheduled = Lock<[(seconds: Double, work: @Sendable () -> Void)]>([])

        var delays: [Double] {
            scheduled.withLock { $0.map(\.seconds) }
        }

        func schedule(after seconds: Double, execute work: @escaping @Sendable () -> Void) {
            scheduled.withLock { $0.append((seconds, work)) }
        }

        /// Runs the work scheduled first and forgets it, as the queue would once its delay passed.
        func runFirst() {
            let first = scheduled.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            first?.work()
        }
    }

    @Test("scheduleNextPlace(on:) asks for ten seconds and shows the next place only when the work runs")
    func tenSecondsThenNextPlace() {
        let scheduler = KeepingScheduler()
        let manager = FeaturedPlaceManager(places: Self.places)
        manager.scheduleNextPlace(on: scheduler)
        #expect(scheduler.delays == [10])
        #expect(manager.currentPlace.name == "A")
        scheduler.runFirst()
        #expect(manager.currentPlace.name == "B")
    }

    @Test("The delay is the manager's interval")
    func givenInterval() {
        let scheduler = KeepingScheduler()
        let manager = FeaturedPlaceManager(places: Self.places, interval: 2.5)
        manager.scheduleNextPlace(on: scheduler)
        #expect(scheduler.delays == [2.5])
    }

    @Test("The real DispatchQueue's deadline is the delay after now, in the uptime clock's nanoseconds")
    func deadline() {
        let now = DispatchTime(uptimeNanoseconds: 1_000)
        #expect(DispatchQueue.deadline(after: 10, from: now).uptimeNanoseconds == 10_000_001_000)
        #expect(DispatchQueue.deadline(after: 0.5, from: now).uptimeNanoseconds == 500_001_000)
    }

    @Test("The real DispatchQueue runs the work on itself; a delay of 0 is due at once")
    func dispatchQueueConforms() async throws {
        let queue = DispatchQueue(label: "DelayedWorkSchedulerTests")
        let ranOnQueue = try await boundedContinuation("the work scheduled on the queue") { continuation in
            let key = DispatchSpecificKey<Bool>()
            queue.setSpecific(key: key, value: true)
            queue.schedule(after: 0) {
                continuation.resume(returning: DispatchQueue.getSpecific(key: key) == true)
            }
        }
        #expect(ranOnQueue)
    }
}
