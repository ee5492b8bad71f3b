// The talk's unit test for a notification observer (WWDC 2018 session 417, "Working with notifications"), typed
// in as shown on the slides, with the slides' typos fixed (`noficationCenter`, `PointsOfInterestTableViewCoontroller`).
// Linux adaptations only: UIKit does not exist on Linux, so `PointsOfInterestListModel`, the model the talk's
// table view controller stands for, takes its place; and the imports of the package's modules.
import Foundation
import POIApp
import POILocation
import XCTest

class PointsOfInterestTableViewControllerTests: XCTestCase {
    func testNotification() {
        let notificationCenter = NotificationCenter()
        let observer = PointsOfInterestListModel(notificationCenter: notificationCenter)
        XCTAssertFalse(observer.didHandleNotification)

        let name = CurrentLocationProvider.authChangedNotification
        notificationCenter.post(name: name, object: nil)

        XCTAssertTrue(observer.didHandleNotification)
    }
}
