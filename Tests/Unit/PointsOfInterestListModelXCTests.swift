import Foundation
import POIApp
import POILocation
import POITestSupport
import XCTest

/// The XCTest twin of `PointsOfInterestListModelTests`, beyond the talk's own test in `Talk/`.
final class PointsOfInterestListModelXCTests: XCTestCase {
    func testInjectedCenterReloadsTheList() {
        let notificationCenter = NotificationCenter()
        let list = PointsOfInterestListModel(notificationCenter: notificationCenter)
        let reloads = list.reloadCount

        notificationCenter.post(name: CurrentLocationProvider.authChangedNotification, object: nil)

        XCTAssertTrue(list.didHandleNotification)
        XCTAssertEqual(list.reloadCount, reloads + 1)
    }

    func testDefaultCenterDoesNotReachTheList() {
        let list = PointsOfInterestListModel(notificationCenter: NotificationCenter())
        NotificationCenter.default.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
        XCTAssertFalse(list.didHandleNotification)
    }

    func testObserverAddedOnceAndRemovedFromTheSameCenter() {
        let spy = SpyNotificationCenter()
        do {
            let list = PointsOfInterestListModel(notificationCenter: spy)
            XCTAssertEqual(spy.observerCount, 1)
            spy.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
            XCTAssertTrue(list.didHandleNotification)
        }
        XCTAssertEqual(spy.additions.map(\.name), [CurrentLocationProvider.authChangedNotification])
        XCTAssertEqual(spy.additions.map(\.hasQueue), [false])
        XCTAssertEqual(spy.removals, spy.additions.map(\.token))
        XCTAssertEqual(spy.observerCount, 0)
    }
}
