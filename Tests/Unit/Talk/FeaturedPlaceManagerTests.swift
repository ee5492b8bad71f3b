// The talk's unit test for delayed actions (WWDC 2018 session 417, "Test execution speed"), typed in as shown on
// the slides, with the slides' typos fixed (`timeScheduler`). Linux adaptations: the imports of the package's
// modules, including FoundationNetworking-free Foundation for `Timer` and `RunLoop`.
import Foundation
import POIApp
import XCTest

class FeaturedPlaceManagerTests: XCTestCase {
    struct MockTimerScheduler: TimerScheduler {
        var handleAddTimer: ((_ timer: Timer) -> Void)?

        func add(_ timer: Timer, forMode mode: RunLoop.Mode) {
            handleAddTimer?(timer)
        }
    }

    func testScheduleNextPlace() {
        var timerScheduler = MockTimerScheduler()
        var timerDelay = TimeInterval(0)
        timerScheduler.handleAddTimer = { timer in
            timerDelay = timer.fireDate.timeIntervalSinceNow
            timer.fire()
        }

        let manager = FeaturedPlaceManager(timerScheduler: timerScheduler)
        let beforePlace = manager.currentPlace
        manager.scheduleNextPlace()

        // No delay!
        XCTAssertEqual(timerDelay, 10, accuracy: 1)
        XCTAssertNotEqual(manager.currentPlace, beforePlace)
    }
}
