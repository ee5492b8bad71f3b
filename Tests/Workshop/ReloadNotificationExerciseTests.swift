import Foundation
import POIApp
import XCTest

/// Exercise `reload-notification` (chapter 6, testing notification posters).
///
/// After each reload the list posts `PointsOfInterestListModelDidReload`, with itself as the object, on its injected
/// center, and not on `.default`. One test, so that it fails before the exercise is done (nothing is posted on
/// `.default` today either).
final class ReloadNotificationExerciseTests: XCTestCase {
    private let reloaded = Notification.Name("PointsOfInterestListModelDidReload")

    override func setUpWithError() throws {
        try XCTSkipUnless(
            WorkshopSwitch.isOn("reload-notification"), "run 'scripts/workshop check reload-notification'")
    }

    func testReloadPostsOnTheInjectedCenterOnly() {
        let center = NotificationCenter()
        let list = PointsOfInterestListModel(notificationCenter: center)
        let posted = XCTNSNotificationExpectation(name: reloaded, object: list, notificationCenter: center)
        let onDefault = XCTNSNotificationExpectation(name: reloaded, object: list, notificationCenter: .default)
        onDefault.isInverted = true
        list.reload()
        wait(for: [posted, onDefault], timeout: 0)
    }
}
