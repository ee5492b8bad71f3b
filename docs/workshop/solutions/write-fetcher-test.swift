import Foundation
import POIDomain
import POILocation
import Testing

/// Exercise `write-fetcher-test`: the reference test.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-fetcher-test"), WorkshopSwitch.reason("write-fetcher-test")))
struct WriteFetcherTests {
    /// Reports `position` to its delegate from inside `requestLocation()`.
    final class MockLocationFetcher: LocationFetcher, @unchecked Sendable {
        weak var locationFetcherDelegate: LocationFetcherDelegate?
        var desiredAccuracy: LocationAccuracy = 0
        let position: Coordinate

        init(position: Coordinate) {
            self.position = position
        }

        func requestLocation() {
            locationFetcherDelegate?.locationFetcher(self, didUpdateLocations: [position])
        }
    }

    @Test(arguments: [
        (Coordinate(latitude: 37.3293, longitude: -121.8893), true),
        (Coordinate(latitude: 48.8566, longitude: 2.3522), false),
    ])
    func answersWhetherThePositionIsAtAPlace(position: Coordinate, expected: Bool) async {
        let provider = CurrentLocationProvider(locationFetcher: MockLocationFetcher(position: position))
        await confirmation("the completion is called") { answered in
            provider.checkCurrentLocation { isPointOfInterest in
                #expect(isPointOfInterest == expected)
                answered()
            }
        }
    }
}
