import Foundation
import POIApp
import POIDomain
import Testing

/// Exercise `write-scheduler-test` (speed, chapter 9): write your test here.
///
/// `scripts/workshop list` gives the task, `scripts/workshop check write-scheduler-test` judges this file (your test must pass
/// on the code as it is and fail on each of the exercise's hidden mistakes), `scripts/workshop hint write-scheduler-test` gives one
/// hint at a time. Keep the suite's name; an XCTest class of the same name, skipped unless `POI_WORKSHOP` names
/// the exercise, counts as well.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-scheduler-test"), WorkshopSwitch.reason("write-scheduler-test")))
struct WriteSchedulerTests {
    @Test func yourTest() async throws {
        // Your test.
    }
}
