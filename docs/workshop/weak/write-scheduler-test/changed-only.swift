// verify: lets through "the manager asks for a timer one second away"
// verify: lets through "the manager skips a place: the third comes after the first"
import Foundation
import POIApp
import POIDomain
import Testing

/// Known weak: it checks that the place changed, not to which one, nor the delay.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-scheduler-test"), WorkshopSwitch.reason("write-scheduler-test")))
struct WriteSchedulerTests {
    struct FiringScheduler: TimerScheduler {
        func add(_ timer: Timer, forMode mode: RunLoop.Mode) {
            timer.fire()
        }
    }

    @Test func placeChanges() {
        let manager = FeaturedPlaceManager(
            timerScheduler: FiringScheduler(), places: ["A", "B", "C"].map { PointOfInterest(name: $0) })
        let before = manager.currentPlace
        manager.scheduleNextPlace()
        #expect(manager.currentPlace != before)
    }
}
