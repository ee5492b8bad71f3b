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
///
/// What you need, in POIApp and POILocation (chapter 5 shows them at work):
///
///     let center = NotificationCenter()                         // a center of your test's own
///     let list = PointsOfInterestListModel(notificationCenter: center)
///     center.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
///     list.didHandleNotification                                // Bool
///     list.reloadCount                                          // Int: the list reloads once when it is made
///
/// In XCTest, replace the suite with:
///
///     final class WriteObserverTests: XCTestCase {   // import XCTest
///         func testReloads() throws {
///             try XCTSkipUnless(WorkshopSwitch.isOn("write-observer-test"), "run 'scripts/workshop check write-observer-test'")
///             // Your test: XCTAssertTrue, XCTAssertEqual instead of #expect.
///         }
///     }
@Suite(.enabled(if: WorkshopSwitch.isOn("write-observer-test"), WorkshopSwitch.reason("write-observer-test")))
struct WriteObserverTests {
    @Test func yourTest() async throws {
        // Your test.
    }
}
