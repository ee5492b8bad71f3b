import Foundation
import POIApp
import POIDomain
import Testing

/// Exercise `write-scheduler-test`: the reference test.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-scheduler-test"), WorkshopSwitch.reason("write-scheduler-test")))
struct WriteSchedulerTests {
    /// Records the delay of the timer it is given, and fires it at once.
    final class FiringScheduler: TimerScheduler, @unchecked Sendable {
        var delays: [TimeInterval] = []

        func add(_ timer: Timer, forMode mode: RunLoop.Mode) {
            delays.append(timer.fireDate.timeIntervalSinceNow)
            timer.fire()
        }
    }

    @Test func schedulesTheNextPlaceTenSecondsAway() {
        let scheduler = FiringScheduler()
        let manager = FeaturedPlaceManager(
            timerScheduler: scheduler, places: ["A", "B", "C"].map { PointOfInterest(name: $0) })
        manager.scheduleNextPlace()
        #expect(scheduler.delays.count == 1)
        #expect(abs((scheduler.delays.first ?? 0) - 10) < 1)
        #expect(manager.currentPlace.name == "B")
    }
}
