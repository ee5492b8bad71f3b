import Foundation
import POILocation
import XCTest

/// The XCTest twin of `CurrentLocationProviderCheckTests.delegateWiring` (chapter 8): the provider makes itself its
/// fetcher's delegate, checked on the fetcher, at once, without asking for a location.
final class LocationFetcherDelegateXCTests: XCTestCase {
    /// A fetcher that only keeps what it is given.
    ///
    /// A class, unlike the talk's struct mock: the provider stores the fetcher and sets the delegate on what it
    /// stored, so only a reference lets the test see that delegate.
    /// `@unchecked Sendable`: the provider takes its fetcher as `sending`, and this test touches it from its own
    /// thread only.
    final class RecordingFetcher: LocationFetcher, @unchecked Sendable {
        weak var locationFetcherDelegate: LocationFetcherDelegate?
        var desiredAccuracy: LocationAccuracy = 0
        private(set) var requests = 0

        func requestLocation() {
            requests += 1
        }
    }

    func testProviderIsItsFetchersDelegate() {
        let fetcher = RecordingFetcher()
        let provider = CurrentLocationProvider(locationFetcher: fetcher, notificationCenter: NotificationCenter())
        XCTAssertTrue(fetcher.locationFetcherDelegate === provider)
        XCTAssertEqual(fetcher.desiredAccuracy, 100)
        XCTAssertEqual(fetcher.requests, 0, "making the provider asks for no location")
    }
}
