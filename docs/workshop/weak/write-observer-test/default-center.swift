import Foundation
import POIApp
import POILocation
import Testing

/// Known weak: the talk's first test, on `.default`: it passes whichever center the list observes.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-observer-test"), WorkshopSwitch.reason("write-observer-test")))
struct WriteObserverTests {
    @Test func handlesTheNotification() {
        let list = PointsOfInterestListModel()
        NotificationCenter.default.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
        #expect(list.didHandleNotification)
    }
}
