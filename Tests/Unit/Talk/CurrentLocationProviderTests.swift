// The talk's unit tests for the location provider (WWDC 2018 session 417, "Working with notifications" and
// "Mocking with protocols"), typed in as shown on the slides, with the slides' typos fixed
// (`LocationFetcerDelgate`, `handleRequestLocatiion`). Linux adaptations only:
// - `Coordinate` instead of CoreLocation's `CLLocation`, and `LocationAccuracy` instead of `CLLocationAccuracy`:
//   CoreLocation does not exist on Linux;
// - the imports of the package's modules.
import Foundation
import POIDomain
import POILocation
import XCTest

class CurrentLocationProviderTests: XCTestCase {
    struct MockLocationFetcher: LocationFetcher {
        weak var locationFetcherDelegate: LocationFetcherDelegate?

        var desiredAccuracy: LocationAccuracy = 0

        var handleRequestLocation: (() -> Coordinate)?
        func requestLocation() {
            guard let location = handleRequestLocation?() else { return }
            locationFetcherDelegate?.locationFetcher(self, didUpdateLocations: [location])
        }
    }

    func testNotifyAuthChanged() {
        let notificationCenter = NotificationCenter()
        let poster = CurrentLocationProvider(notificationCenter: notificationCenter)

        let name = CurrentLocationProvider.authChangedNotification
        let expectation = XCTNSNotificationExpectation(
            name: name,
            object: poster,
            notificationCenter: notificationCenter
        )

        poster.notifyAuthChanged()
        wait(for: [expectation], timeout: 0)
    }

    func testCheckCurrentLocation() {
        var locationFetcher = MockLocationFetcher()
        let requestLocationExpectation = expectation(description: "request location")
        locationFetcher.handleRequestLocation = {
            requestLocationExpectation.fulfill()
            return Coordinate(latitude: 37.3293, longitude: -121.8893)
        }
        let provider = CurrentLocationProvider(locationFetcher: locationFetcher)
        let completionExpectation = expectation(description: "completion")
        provider.checkCurrentLocation { isPointOfInterest in
            XCTAssertTrue(isPointOfInterest)
            completionExpectation.fulfill()
        }

        wait(for: [requestLocationExpectation, completionExpectation], timeout: 1)
    }
}
