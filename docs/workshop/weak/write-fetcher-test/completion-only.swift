// verify: rejected "your test asserts nothing"
import Foundation
import POIDomain
import POILocation
import Testing

/// Known weak: it confirms that the completion ran, and nothing about its answer.
@Suite(.enabled(if: WorkshopSwitch.isOn("write-fetcher-test"), WorkshopSwitch.reason("write-fetcher-test")))
struct WriteFetcherTests {
    final class MockLocationFetcher: LocationFetcher, @unchecked Sendable {
        weak var locationFetcherDelegate: LocationFetcherDelegate?
        var desiredAccuracy: LocationAccuracy = 0

        func requestLocation() {
            locationFetcherDelegate?.locationFetcher(
                self, didUpdateLocations: [Coordinate(latitude: 48.8566, longitude: 2.3522)])
        }
    }

    @Test func answers() async {
        let provider = CurrentLocationProvider(locationFetcher: MockLocationFetcher())
        await confirmation("the completion is called") { answered in
            provider.checkCurrentLocation { _ in answered() }
        }
    }
}
