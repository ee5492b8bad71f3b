// verify: rejected "the task says it must not wait"
import Foundation
import POIApp
import POIDomain
import Testing

/// Known weak: it checks everything the task asks, then sleeps; the task says the test must not wait.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-scheduler-test"), WorkshopSwitch.reason("write-scheduler-test")))
struct WriteSchedulerTests {
    final class FiringScheduler: TimerScheduler, @unchecked Sendable {
        var delays: [TimeInterval] = []

        func add(_ timer: Timer, forMode mode: RunLoop.Mode) {
            delays.append(timer.fireDate.timeIntervalSinceNow)
            timer.fire()
        }
    }

    @Test func schedulesTheNextPlaceThenWaits() {
        let scheduler = FiringScheduler()
        let manager = FeaturedPlaceManager(
            timerScheduler: scheduler, places: ["A", "B", "C"].map { PointOfInterest(name: $0) })
        manager.scheduleNextPlace()
        #expect(abs((scheduler.delays.first ?? 0) - 10) < 1)
        #expect(manager.currentPlace.name == "B")
        Thread.sleep(forTimeInterval: 1.5)
    }
}
