// verify: lets through "the provider answers true wherever you are"
import Foundation
import POIDomain
import POILocation
import Testing

/// Known weak: the talk's one position only, so a provider that always answers true passes.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-fetcher-test"), WorkshopSwitch.reason("write-fetcher-test")))
struct WriteFetcherTests {
    final class MockLocationFetcher: LocationFetcher, @unchecked Sendable {
        weak var locationFetcherDelegate: LocationFetcherDelegate?
        var desiredAccuracy: LocationAccuracy = 0

        func requestLocation() {
            locationFetcherDelegate?.locationFetcher(
                self, didUpdateLocations: [Coordinate(latitude: 37.3293, longitude: -121.8893)])
        }
    }

    @Test func atTheConventionCenter() async {
        let provider = CurrentLocationProvider(locationFetcher: MockLocationFetcher())
        await confirmation("the completion is called") { answered in
            provider.checkCurrentLocation { isPointOfInterest in
                #expect(isPointOfInterest)
                answered()
            }
        }
    }
}
