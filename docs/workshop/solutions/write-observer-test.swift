import Foundation
import POIApp
import POILocation
import Testing

/// Exercise `write-observer-test`: the reference test.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-observer-test"), WorkshopSwitch.reason("write-observer-test")))
struct WriteObserverTests {
    @Test func reloadsOnceForAuthChangedOnItsCenterOnly() {
        let center = NotificationCenter()
        let list = PointsOfInterestListModel(notificationCenter: center)
        let before = list.reloadCount

        center.post(name: Notification.Name("SomethingElse"), object: nil)
        #expect(!list.didHandleNotification)
        #expect(list.reloadCount == before)

        center.post(name: CurrentLocationProvider.authChangedNotification, object: nil)
        #expect(list.didHandleNotification)
        #expect(list.reloadCount == before + 1)
    }
}
