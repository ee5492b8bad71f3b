import Foundation
import POIApp
import XCTest

/// Exercise `reload-notification` (chapter 6, testing notification posters).
///
/// after each reload the list posts
/// `PointsOfInterestListModelDidReload`, with itself as the object, on its injected center.
final class ReloadNotificationExerciseTests: XCTestCase {
    private let reloaded = Notification.Name("PointsOfInterestListModelDidReload")

    override func setUpWithError() throws {
        try XCTSkipUnless(
            WorkshopSwitch.isOn("reload-notification"), "run 'scripts/workshop check reload-notification'")
    }

    func testReloadPostsOnTheInjectedCenter() {
        let center = NotificationCenter()
        let list = PointsOfInterestListModel(notificationCenter: center)
        let posted = XCTNSNotificationExpectation(name: reloaded, object: list, notificationCenter: center)
        list.reload()
        wait(for: [posted], timeout: 0)
    }

    func testReloadDoesNotPostOnDefault() {
        let list = PointsOfInterestListModel(notificationCenter: NotificationCenter())
        let posted = XCTNSNotificationExpectation(name: reloaded, object: list, notificationCenter: .default)
        posted.isInverted = true
        list.reload()
        wait(for: [posted], timeout: 0)
    }
}
