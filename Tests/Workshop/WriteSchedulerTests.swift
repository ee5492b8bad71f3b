import Foundation
import POIApp
import POIDomain
import POILock
import Synchronization
import Testing

/// Exercise `write-scheduler-test` (speed, chapter 9): write your test here.
///
/// `scripts/workshop list` gives the task, `scripts/workshop check write-scheduler-test` judges this file (your test must pass
/// on the code as it is and fail on each of the exercise's hidden mistakes), `scripts/workshop hint write-scheduler-test` gives one
/// hint at a time. Keep the suite's name; an XCTest class of the same name, skipped unless `POI_WORKSHOP` names
/// the exercise, counts as well.
///
/// What you need, in POIApp and POIDomain (chapter 9 shows them at work):
///
///     protocol TimerScheduler { func add(_ timer: Timer, forMode mode: RunLoop.Mode) }   // your mock
///     let manager = FeaturedPlaceManager(timerScheduler: yourMock, places: [PointOfInterest(name: "A"), ...])
///     manager.scheduleNextPlace()          // hands your mock a Timer: its fireDate says how far away it is
///     timer.fire()                         // runs the timer's block now, without waiting
///     manager.currentPlace                 // the place shown
///
/// Your test must not wait. Chapter 9's `FiringScheduler` keeps its delays behind a `Lock` (POILock, imported here, as
/// it is in the chapter's test file): it compiles copied as it is. A `Mutex` (Synchronization, imported too) works as
/// well. The test below is synchronous, as chapter 9's are: the talk's test, which runs the run loop, compiles in it
/// (a run loop cannot be run from an `async` function). In XCTest, replace the suite with:
///
///     final class WriteSchedulerTests: XCTestCase {   // import XCTest
///         func testSchedules() throws {
///             try XCTSkipUnless(WorkshopSwitch.isOn("write-scheduler-test"), "run 'scripts/workshop check write-scheduler-test'")
///             // Your test: XCTAssertEqual(..., accuracy: 1) instead of #expect.
///         }
///     }
@Suite(.enabled(if: WorkshopSwitch.isOn("write-scheduler-test"), WorkshopSwitch.reason("write-scheduler-test")))
struct WriteSchedulerTests {
    @Test func yourTest() throws {
        // Your test.
    }
}
