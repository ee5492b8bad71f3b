import Foundation
import POIApp
import POILocation
import Testing

/// Exercise `write-observer-test` (notifications, chapter 5): write your test here.
///
/// `scripts/workshop list` gives the task, `scripts/workshop check write-observer-test` judges this file (your test must pass
/// on the code as it is and fail on each of the exercise's hidden mistakes), `scripts/workshop hint write-observer-test` gives one
/// hint at a time. Keep the suite's name; an XCTest class of the same name, skipped unless `POI_WORKSHOP` names
/// the exercise, counts as well.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-observer-test"), WorkshopSwitch.reason("write-observer-test")))
struct WriteObserverTests {
    @Test func yourTest() async throws {
        // Your test.
    }
}
