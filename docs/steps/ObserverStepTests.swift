import Foundation
import POIApp
import POILocation
import XCTest

/// Chapter 5's steps (scripts/tool steps 5): the talk's test of the list, on `.default` and then on a center of the
/// test's own, and what each post reaches.
final class ObserverStepTests: XCTestCase {
    /// Step 1, the talk's first test: post on `.default`, check that the list handled it.
    func testOnDefaultTheListHandlesTheNotification() {
        let observer = PointsOfInterestListModel()
        NotificationCenter.default.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
        XCTAssertTrue(observer.didHandleNotification)
    }

    /// What the chapter says of step 1: a post on `.default` reaches every list in the process.
    func testOnDefaultAPostReachesAListTheTestDidNotMake() {
        let elsewhere = PointsOfInterestListModel()
        _ = PointsOfInterestListModel()
        NotificationCenter.default.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
        XCTAssertTrue(elsewhere.didHandleNotification, "the post reached only the test's own list")
    }

    /// Step 2, the talk's test with a center of its own.
    func testTheListHandlesTheNotification() {
        let notificationCenter = NotificationCenter()
        let observer = PointsOfInterestListModel(notificationCenter: notificationCenter)
        notificationCenter.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
        XCTAssertTrue(observer.didHandleNotification)
    }

    /// What the chapter says of step 2: the post reaches the test's list only; this check now fails.
    func testAPostReachesAListTheTestDidNotMake() {
        let notificationCenter = NotificationCenter()
        let elsewhere = PointsOfInterestListModel(notificationCenter: NotificationCenter())
        _ = PointsOfInterestListModel(notificationCenter: notificationCenter)
        notificationCenter.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
        XCTAssertTrue(elsewhere.didHandleNotification, "the post reached only the test's own list")
    }
}
