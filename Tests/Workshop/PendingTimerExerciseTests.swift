import Foundation
import POIApp
import POIDomain
import Synchronization
import Testing

/// Exercise `pending-timer` (chapter 9, delayed actions).
///
/// `scheduleNextPlace()` does nothing while a timer it
/// scheduled has not fired yet, so that two calls do not skip a place. A mock scheduler keeps the timers, and the
/// test fires them when it wants: no waiting.
@Suite(
    "Exercise: pending-timer",
    .enabled(if: WorkshopSwitch.isOn("pending-timer"), WorkshopSwitch.reason("pending-timer")))
struct PendingTimerExerciseTests {
    final class KeepingScheduler: TimerScheduler, @unchecked Sendable {
        // Used on the test's task only; @unchecked because Timer is not Sendable.
        var timers: [Timer] = []

        func add(_ timer: Timer, forMode mode: RunLoop.Mode) {
            timers.append(timer)
        }
    }

    @Test("A second call while a timer is pending adds no timer; after it fired, the next call adds one")
    func onePendingTimer() {
        let scheduler = KeepingScheduler()
        let manager = FeaturedPlaceManager(
            timerScheduler: scheduler, places: ["A", "B", "C"].map { PointOfInterest(name: $0) })
        manager.scheduleNextPlace()
        manager.scheduleNextPlace()
        #expect(scheduler.timers.count == 1)

        scheduler.timers.first?.fire()
        #expect(manager.currentPlace.name == "B")
        manager.scheduleNextPlace()
        #expect(scheduler.timers.count == 2)
    }
}
