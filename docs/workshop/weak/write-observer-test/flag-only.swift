// verify: lets through "the list notes the notification but does not reload"
// verify: lets through "the list reloads twice for one notification"
// verify: lets through "the list handles every notification on its center, whatever its name"
import Foundation
import POIApp
import POILocation
import Testing

/// Known weak: it checks the flag, not the reload, nor that other notifications are ignored.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-observer-test"), WorkshopSwitch.reason("write-observer-test")))
struct WriteObserverTests {
    @Test func handlesTheNotification() {
        let center = NotificationCenter()
        let list = PointsOfInterestListModel(notificationCenter: center)
        center.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
        #expect(list.didHandleNotification)
    }
}
