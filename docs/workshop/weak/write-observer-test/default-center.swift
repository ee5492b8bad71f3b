// verify: lets through "the list observes NotificationCenter.default, not the center it was given"
// verify: lets through "the list notes the notification but does not reload"
// verify: lets through "the list reloads twice for one notification"
// verify: lets through "the list handles every notification on its center, whatever its name"
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
